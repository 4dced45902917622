package loose

import "testing"

func TestFirstText(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"name", "desc"}, "name"},
		{[]string{" \n", "desc"}, "desc"},
		{[]string{"", " "}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		if got := FirstText(c.in...); got != c.want {
			t.Errorf("FirstText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLead(t *testing.T) {
	cases := []struct {
		in   string
		want byte
	}{
		{` {"a":1}`, '{'},
		{"\n\t[1]", '['},
		{`"s"`, '"'},
		{"  ", 0},
		{"", 0},
	}
	for _, c := range cases {
		if got := Lead([]byte(c.in)); got != c.want {
			t.Errorf("Lead(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
