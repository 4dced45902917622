package words

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

// Set is a read-only set of short strings, looked up by a byte slice or a
// string without allocating. It exists because the scanner and the decision
// finder ask it for nearly every word of a conversation: an open-addressed
// table with an FNV hash, kept a quarter full, costs a fraction of a Go map
// look-up there.
type Set struct {
	slots []int32 // 0 empty, else 1 + index into words
	words []string
	mask  uint32
	// lens has bit n set when a member is n bytes long (n < 64); longer
	// members set bit 63. first has bit c set when a member starts with
	// byte c. Most words that are not members fail one of them.
	lens  uint64
	first [4]uint64
}

// NewSet returns the set of the whitespace-separated words of list.
func NewSet(list string) *Set { return newSet(strings.Fields(list)) }

// NewSetOf returns the set of ws, which may hold any bytes.
func NewSetOf(ws []string) *Set { return newSet(ws) }

func newSet(ws []string) *Set {
	size := 16
	for size < 4*len(ws) {
		size *= 2
	}
	s := &Set{slots: make([]int32, size), mask: uint32(size - 1)}
	for _, w := range ws {
		if s.index(w) >= 0 {
			continue
		}
		s.words = append(s.words, w)
		s.lens |= lenBit(len(w))
		if w != "" {
			s.first[w[0]/64] |= 1 << (w[0] % 64)
		}
		for i := hashString(w) & s.mask; ; i = (i + 1) & s.mask {
			if s.slots[i] == 0 {
				s.slots[i] = int32(len(s.words))
				break
			}
		}
	}
	return s
}

func lenBit(n int) uint64 { return 1 << min(n, 63) }

// Has reports whether b is a member.
func (s *Set) Has(b []byte) bool { return s.indexBytes(b) >= 0 }

// indexBytes is index for a byte slice.
func (s *Set) indexBytes(b []byte) int {
	if s.lens&lenBit(len(b)) == 0 || len(b) > 0 && s.first[b[0]/64]&(1<<(b[0]%64)) == 0 {
		return -1
	}
	for i := Hash(b) & s.mask; ; i = (i + 1) & s.mask {
		id := s.slots[i]
		if id == 0 {
			return -1
		}
		if s.words[id-1] == string(b) {
			return int(id - 1)
		}
	}
}

// HasString reports whether w is a member.
func (s *Set) HasString(w string) bool { return s.index(w) >= 0 }

// Index returns the position of b among the members in the order given
// (duplicates left out), or -1.
func (s *Set) Index(b []byte) int { return s.indexBytes(b) }

// Len returns the number of members.
func (s *Set) Len() int { return len(s.words) }

// index returns the position of w among the members in the order added, or
// -1.
func (s *Set) index(w string) int {
	if s.lens&lenBit(len(w)) == 0 || len(w) > 0 && s.first[w[0]/64]&(1<<(w[0]%64)) == 0 {
		return -1
	}
	for i := hashString(w) & s.mask; ; i = (i + 1) & s.mask {
		id := s.slots[i]
		if id == 0 {
			return -1
		}
		if s.words[id-1] == w {
			return int(id - 1)
		}
	}
}

// Hash returns a hash of b for tables of words: it reads a short word's
// bytes at most twice and multiplies once (FNV's byte-at-a-time chain was a
// tenth of extraction), and reads at most 24 bytes of a long one, which only
// makes collisions of long words likelier.
func Hash(b []byte) uint32 {
	n := len(b)
	var x uint64
	switch {
	case n >= 8:
		x = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 29)
		if n > 16 {
			x ^= binary.LittleEndian.Uint64(b[8:]) * 0xff51afd7ed558ccd
		}
	case n >= 4:
		x = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	case n > 0:
		x = uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16
	}
	return mix(x, n)
}

// hashString is Hash for a string.
func hashString(s string) uint32 {
	n := len(s)
	var x uint64
	switch {
	case n >= 8:
		x = le64(s) ^ bits.RotateLeft64(le64(s[n-8:]), 29)
		if n > 16 {
			x ^= le64(s[8:]) * 0xff51afd7ed558ccd
		}
	case n >= 4:
		x = uint64(le32(s)) | uint64(le32(s[n-4:]))<<32
	case n > 0:
		x = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return mix(x, n)
}

func mix(x uint64, n int) uint32 {
	x ^= uint64(n) * 0x9e3779b97f4a7c15
	x *= 0xc2b2ae3d27d4eb4f
	return uint32(x>>32) ^ uint32(x>>7)
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
