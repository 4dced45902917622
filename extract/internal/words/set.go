package words

import "strings"

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
	// members set bit 63.
	lens uint64
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
	if s.lens&lenBit(len(b)) == 0 {
		return -1
	}
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	for i := h & s.mask; ; i = (i + 1) & s.mask {
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

// Len returns the number of members.
func (s *Set) Len() int { return len(s.words) }

// index returns the position of w among the members in the order added, or
// -1.
func (s *Set) index(w string) int {
	if s.lens&lenBit(len(w)) == 0 {
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

// hashString is 32-bit FNV-1a: short words, no setup.
func hashString(w string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h ^= uint32(w[i])
		h *= 16777619
	}
	return h
}
