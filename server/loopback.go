package server

import (
	"net"
	"strings"
)

// IsLoopback reports whether host (a name or address, with or without a
// port, IPv6 in brackets or not) names this machine's loopback: localhost
// and its subdomains (RFC 6761 reserves them for loopback), each with or
// without the root's trailing dot, and every address of 127.0.0.0/8 and ::1.
//
// It is the one rule for what counts as loopback: the daemon refuses to
// listen elsewhere without a token, and the API refuses Host headers that
// fail it (a web page elsewhere must not reach the API through DNS
// rebinding).
func IsLoopback(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
