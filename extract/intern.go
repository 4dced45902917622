package extract

import "github.com/convsearch/convsearch/extract/internal/words"

// The topic scanner looks up every word of a conversation, and every phrase
// of up to three words ending at it: these open-addressed tables do that with
// a cheap hash and no allocation, where Go maps spent a fifth of extraction
// hashing and probing.

// wordTable interns words: it maps a word's bytes to its id (1-based), an
// index into a list of strings its owner keeps.
type wordTable struct {
	slots  []int32 // 0 empty, else id
	hashes []uint32
	mask   uint32
}

// reset empties the table, keeping its memory.
func (t *wordTable) reset() {
	if len(t.slots) == 0 {
		t.slots = make([]int32, 1024)
		t.mask = uint32(len(t.slots) - 1)
	} else {
		clear(t.slots)
	}
	t.hashes = t.hashes[:0]
}

func hashBytes(b []byte) uint32 { return words.Hash(b) }

// find returns the id of w (hashed h) among keys, or 0.
func (t *wordTable) find(w []byte, h uint32, keys []string) int32 {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		id := t.slots[i]
		if id == 0 {
			return 0
		}
		if t.hashes[id-1] == h && keys[id-1] == string(w) {
			return id
		}
	}
}

// add records that the word hashed h is id, the next id: keys[id-1] must
// already hold it.
func (t *wordTable) add(h uint32, id int32) {
	t.hashes = append(t.hashes, h)
	if 2*len(t.hashes) > len(t.slots) {
		t.grow()
		return // grow placed every id, this one included
	}
	t.place(h, id)
}

func (t *wordTable) place(h uint32, id int32) {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		if t.slots[i] == 0 {
			t.slots[i] = id
			return
		}
	}
}

func (t *wordTable) grow() {
	t.slots = make([]int32, 2*len(t.slots))
	t.mask = uint32(len(t.slots) - 1)
	for i, h := range t.hashes {
		t.place(h, int32(i+1))
	}
}

// phraseTable maps the key of a phrase of two or three words to the index of
// its candidate.
type phraseTable struct {
	slots []int32 // 0 empty, else candidate index + 1
	n     int
	mask  uint32
}

func (t *phraseTable) reset() {
	if len(t.slots) == 0 {
		t.slots = make([]int32, 2048)
		t.mask = uint32(len(t.slots) - 1)
	} else {
		clear(t.slots)
	}
	t.n = 0
}

func hashKey(k key) uint32 {
	x := (uint64(uint32(k[0]))<<32 | uint64(uint32(k[1]))) * 0x9e3779b97f4a7c15
	x ^= uint64(uint32(k[2])) * 0xc2b2ae3d27d4eb4f
	x ^= x >> 29
	return uint32(x)
}

// find returns the candidate index of k, or -1.
func (t *phraseTable) find(k key, cands []candidate) int32 {
	for i := hashKey(k) & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			return -1
		}
		if cands[v-1].norm == k {
			return v - 1
		}
	}
}

// add records that k is candidate ci; k must not be in the table.
func (t *phraseTable) add(k key, ci int32, cands []candidate) {
	t.n++
	if 2*t.n > len(t.slots) {
		old := t.slots
		t.slots = make([]int32, 2*len(old))
		t.mask = uint32(len(t.slots) - 1)
		for _, v := range old {
			if v != 0 {
				t.place(cands[v-1].norm, v)
			}
		}
	}
	t.place(k, ci+1)
}

func (t *phraseTable) place(k key, v int32) {
	for i := hashKey(k) & t.mask; ; i = (i + 1) & t.mask {
		if t.slots[i] == 0 {
			t.slots[i] = v
			return
		}
	}
}
