package server

import "testing"

func TestIsLoopback(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"LocalHost", true},
		{"localhost:7788", true},
		{"localhost.", true},
		{"localhost.:7788", true},
		{"app.localhost", true},
		{"app.localhost:7788", true},
		{"127.0.0.1", true},
		{"127.0.0.1:7788", true},
		{"127.0.0.2", true},
		{"127.255.255.254:80", true},
		{"::1", true},
		{"[::1]", true},
		{"[::1]:7788", true},
		{"::ffff:127.0.0.1", true},
		{"", false},
		{"evil.com", false},
		{"evil.com:7788", false},
		// DNS rebinding: names that merely contain a loopback name or
		// address resolve wherever their owner says.
		{"localhost.evil.com", false},
		{"127.0.0.1.evil.com", false},
		{"127.0.0.1.nip.io:7788", false},
		{"evillocalhost", false},
		{"localhost-evil.com", false},
		{"0.0.0.0", false},
		{"[::]:7788", false},
		{"10.0.0.1", false},
		{"192.168.1.10:7788", false},
		{"127.1", false}, // not an address Go parses; a resolver's guess
	} {
		if got := IsLoopback(tc.host); got != tc.want {
			t.Errorf("IsLoopback(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}
