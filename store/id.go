package store

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"
)

// crockford is Crockford's base32 alphabet. Its characters are in ascending ASCII order, so
// encoded ids sort as strings in the order of the numbers they encode.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// idLen is the length of the id part of NewID: 128 bits in 5-bit digits.
const idLen = 26

// idGen holds the last id handed out, to keep ids of one process strictly increasing even when
// several are made in the same millisecond or the wall clock steps back.
var idGen struct {
	sync.Mutex
	ms     uint64 // 48-bit milliseconds since the Unix epoch
	hi, lo uint64 // 80 random bits: 16 in hi, 64 in lo
}

// NewID returns prefix + "_" + a 26-character id (just the id when prefix is empty). The id is a
// 48-bit millisecond timestamp followed by 80 random bits in Crockford base32, in the manner of
// ULID: ids sort as strings by creation time, which is what lets ListRuns page by id, and ids
// made by one process are strictly increasing (within a millisecond the random part is
// incremented rather than redrawn).
func NewID(prefix string) string {
	id := newID(time.Now())
	if prefix == "" {
		return id
	}
	return prefix + "_" + id
}

func newID(now time.Time) string {
	ms := uint64(now.UnixMilli()) & (1<<48 - 1)

	idGen.Lock()
	if ms > idGen.ms {
		var b [10]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it aborts the program instead)
		idGen.ms = ms
		idGen.hi = uint64(binary.BigEndian.Uint16(b[:2]))
		idGen.lo = binary.BigEndian.Uint64(b[2:])
	} else {
		// Same millisecond, or the clock went back: continue from the last id.
		idGen.lo++
		if idGen.lo == 0 {
			idGen.hi = (idGen.hi + 1) & 0xffff
			if idGen.hi == 0 {
				// 2^80 ids in one millisecond cannot happen; borrow the next millisecond anyway.
				idGen.ms++
			}
		}
	}
	ms, hi, lo := idGen.ms, idGen.hi, idGen.lo
	idGen.Unlock()

	return encodeID(ms, hi, lo)
}

// encodeID writes the 128-bit number ms<<80 | hi<<64 | lo in 26 base32 digits, most significant
// first (the first digit holds only the top 3 bits, so it is at most '7').
func encodeID(ms, hi, lo uint64) string {
	// As a 128-bit number: upper 64 bits and lower 64 bits.
	u := ms<<16 | hi&0xffff
	l := lo
	var out [idLen]byte
	for i := idLen - 1; i >= 0; i-- {
		out[i] = crockford[l&31]
		l = l>>5 | u<<59
		u >>= 5
	}
	return string(out[:])
}
