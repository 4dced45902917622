package loose

// AppendParagraph appends b to a as a new paragraph (after an empty line),
// for a message built from several blocks; an empty a or b adds nothing.
func AppendParagraph(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + "\n\n" + b
}
