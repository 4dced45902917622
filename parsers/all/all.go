// Package all lists every parser family convsearch ships, in detection order.
// It is the one place a new family is added.
package all

import "github.com/convsearch/convsearch/parsers"

// Registry returns a registry of every family. The most specific detectors
// come first: formats recognised by their file name and a marker key before
// generic JSON shapes.
func Registry() *parsers.Registry {
	return parsers.NewRegistry()
}
