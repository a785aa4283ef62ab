package semantic

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// restylePage is a page whose attributes change the way a click's script changes them; STYLE is
// where each case adds its rules.
const restylePage = `<!doctype html><html><head><title>Restyle</title><style>
.later-off.on ~ .later { visibility: hidden } .later-off.on { display: block; padding-top: 20px }
.hide-kids > * { visibility: hidden }
#shost.off { visibility: hidden }
#row { display: flex; width: 600px } #side { width: 100px } #side.big { width: 450px }
STYLE
</style></head><body>
<div id=wrap><span class=later-off id=x1>Toggle</span><p class=later id=later>Later text</p></div>
<div id=outer><div id=shost></div></div>
<section id=far><p>Far text</p><button id=farbtn>Far button</button></section>
<div id=row><div id=wrap3><div id=side>Side</div></div><div class=cq><p class=inner id=inner>Inner text</p></div></div>
<div id=wrap2><span class=pick id=y1>First pick</span> <span class=pick id=y2>Second pick</span></div>
<div id=slothost><span id=slotted>Slotted text</span></div>
<style id=printonly media=print>#farbtn { visibility: hidden }</style>
<p id=last style="margin-top: 40px">Last text</p>
<script>
document.getElementById('shost').attachShadow({mode: 'open'}).innerHTML = '<button>Shadow deep</button>';
document.getElementById('slothost').attachShadow({mode: 'open'}).innerHTML = '<style>.off { visibility: hidden }</style><div class=wrap><slot></slot></div>';
</script>
</body></html>`

// TestSnap_RestyleScope: after an attribute changes (a class, a style) and nothing else, the
// snapshot reads every box again but style (visibility, display, cursor) only of the
// element, its later siblings and what is under them in the flat tree (open shadow trees, what a
// slot shows). Rules that reach further (:has(), :nth-last-child(of S), container queries) make
// it read all style again. Each snapshot must equal a fresh one.
func TestSnap_RestyleScope(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	dir := t.TempDir()
	base := browsertest.Serve(t, dir)
	for _, c := range []struct {
		name, style string
		scoped      bool
		acts        []string
	}{
		{"within the scope", "", true, []string{
			`() => document.getElementById('x1').classList.add('on')`,           // a later sibling hidden
			`() => document.getElementById('x1').classList.remove('on')`,        // and shown
			`() => { document.getElementById('shost').className = 'off'; }`,     // a shadow tree hidden by inheritance
			`() => { document.getElementById('far').className = 'hide-kids'; }`, // children hidden
			`() => { document.getElementById('far').style.marginLeft = '30px'; }`,
			`() => document.getElementById('side').classList.add('big')`,                                       // a reflow: boxes move everywhere
			`() => document.getElementById('slothost').shadowRoot.querySelector('.wrap').classList.add('off')`, // what the slot shows, by inheritance
		}},
		{"a sheet's media", "", false, []string{
			`() => { document.getElementById('printonly').media = 'all'; }`,
		}},
		{"a sheet's media through the CSSOM", "", false, []string{
			`() => { document.getElementById('printonly').sheet.media.mediaText = 'all'; }`,
		}},
		{":nth-last-child(of S) reaches back", "#wrap2 > :nth-last-child(1 of .pick) { visibility: hidden }", false, []string{
			`() => document.getElementById('y2').classList.remove('pick')`,
		}},
		{":has() reaches up", "#row:has(#side.big) #inner { visibility: hidden }", false, []string{
			`() => document.getElementById('side').classList.add('big')`,
		}},
		{"a container query", ".cq { container-type: inline-size; flex: 1 } @container (max-width: 300px) { .inner { visibility: hidden } }", false, []string{
			`() => document.getElementById('side').classList.add('big')`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := strings.NewReplacer(" ", "-", ":", "", "(", "", ")", "").Replace(c.name) + ".html"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Replace(restylePage, "STYLE", c.style, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			var steps []step
			for _, act := range c.acts {
				steps = append(steps, evalStep(act))
			}
			countedSteps(t, snapPage(t, base+"/"+name, ""), "scoped", c.scoped, steps)
		})
	}
}
