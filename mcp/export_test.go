package mcp

// For the tests of package mcp_test, which may import the daemon package
// (it imports this one).
var (
	NewTestBackend = newTestBackend
	Connect        = connect
)
