package desktop

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"

	"github.com/jezek/xgb/xproto"
)

// Capture reads the pixels of r from the root window (what the screen shows, without the
// pointer's cursor, which X draws apart). An empty r is the whole screen; r is clipped to it.
func (d *Display) Capture(ctx context.Context, r image.Rectangle) (*image.RGBA, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	full := image.Rect(0, 0, d.w, d.h)
	if r.Empty() {
		r = full
	}
	r = r.Intersect(full)
	if r.Empty() {
		return nil, fmt.Errorf("capture: the region is off the %dx%d screen", d.w, d.h)
	}
	rep, err := xproto.GetImage(d.conn, xproto.ImageFormatZPixmap, xproto.Drawable(d.root),
		int16(r.Min.X), int16(r.Min.Y), uint16(r.Dx()), uint16(r.Dy()), 0xffffffff).Reply()
	if err != nil {
		return nil, fmt.Errorf("capture %v: %w", r, err)
	}
	if rep.Depth != 24 && rep.Depth != 32 {
		return nil, fmt.Errorf("capture: the screen has depth %d; rodeo reads 24- and 32-bit screens", rep.Depth)
	}
	img := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	if len(rep.Data) < len(img.Pix) {
		return nil, fmt.Errorf("capture: the server sent %d bytes for %d pixels", len(rep.Data), r.Dx()*r.Dy())
	}
	// ZPixmap at depth 24/32 is 4 bytes a pixel, blue first (little-endian BGRX).
	for i := 0; i+3 < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = rep.Data[i+2], rep.Data[i+1], rep.Data[i], 0xff
	}
	return img, nil
}

// EncodePNG encodes img as PNG (fast compression: a screenshot is written once and read rarely).
func EncodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// Changed counts the pixels that differ between a and b (same size) and the box holding them.
func Changed(a, b *image.RGBA) (int, image.Rectangle) {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy(), a.Bounds()
	}
	n := 0
	var box image.Rectangle
	w := a.Bounds().Dx()
	for i := 0; i+3 < len(a.Pix); i += 4 {
		if a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] || a.Pix[i+2] != b.Pix[i+2] {
			n++
			p := i / 4
			px := image.Rect(p%w, p/w, p%w+1, p/w+1)
			if box.Empty() {
				box = px
			} else {
				box = box.Union(px)
			}
		}
	}
	return n, box
}

// Around is the square of side 2*radius centred on p (for a click's before/after comparison).
func Around(p Point, radius int) image.Rectangle {
	return image.Rect(p.X-radius, p.Y-radius, p.X+radius, p.Y+radius)
}
