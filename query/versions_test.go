package query_test

import (
	"testing"

	"github.com/convsearch/convsearch/query"
)

// A version number finds it written with or without its "v", and after
// the word version.
func TestVersionNumbers(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("tagged", "we tagged v1.2.3 yesterday"),
		chat("bare", "upgrade the library to 1.2.3 first"),
		chat("worded", "the changelog of version 1.2.3 is long"),
		chat("capital", "Release V1.2.3 is out"),
		chat("other", "version 1.2.4 shipped; v2.3 and 1.3 later"),
	)...)
	checkPlain(t, e, []convCase{
		{"1.2.3", []string{"bare", "capital", "tagged", "worded"}},
		{"v1.2.3", []string{"bare", "capital", "tagged", "worded"}},
		{"V1.2.3", []string{"bare", "capital", "tagged", "worded"}},
		{"version 1.2.3", []string{"worded"}},
		{"1.2.4", []string{"other"}},
		// A version stands whole: 2.3 is the end of 1.2.3, but someone
		// who types v2.3 or 2.3 means that version, not every x.2.3 (the
		// index holds 1.2.3 as the numbers 1 2 3, so a phrase of numbers
		// alone would match inside it).
		{"v2.3", []string{"other"}},
		{"2.3", []string{"other"}},
	})
}

// A version number's match stands whole in the text: no digit or
// digit and dot before it, no dot and digit after it. An IP address, a
// longer version or a decimal is not the version; a version followed by
// a pre-release tag or a full stop is.
func TestVersionWhole(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("v123", "we tagged v1.2.3 yesterday"),
		chat("b123", "upgrade the library to 1.2.3 first"),
		chat("b1123", "node 11.2.3 is old"),
		chat("b523", "release 5.2.3 is out"),
		chat("ip", "connect to 10.1.2.3 now"),
		chat("b1234", "the build 1.2.3.4 failed"),
		chat("vip", "see v10.1.2.3 there"),
		chat("dec", "it took 1.5 seconds"),
		chat("v15", "api v1.5 released"),
		chat("ver15", "we run Version 1.5 here"),
		chat("semver", "bump to 1.2.3-beta.1 then"),
		chat("stop", "the fix is in 1.2.3."),
		chat("v12", "the v1.2 notes"),
	)...)
	checkPlain(t, e, []convCase{
		{"1.2.3", []string{"b123", "semver", "stop", "v123"}},
		{"v1.2.3", []string{"b123", "semver", "stop", "v123"}},
		{"V1.2", []string{"v12"}},
		// A prefix: what follows is open, what comes before is not.
		{"v1.2.*", []string{"b123", "b1234", "semver", "stop", "v12", "v123"}},
		{"1.2.*", []string{"b123", "b1234", "semver", "stop", "v12", "v123"}},
		{"1.2.3.4", []string{"b1234"}},
		{"10.1.2.3", []string{"ip", "vip"}},
		{"11.2.3", []string{"b1123"}},
		// Typed plainly, 1.5 is in "1.5 seconds"; typed v1.5 it is a
		// version, found bare only after the word version.
		{"1.5", []string{"dec", "v15", "ver15"}},
		{"v1.5", []string{"v15", "ver15"}},
	})
}

// A version's numbers are joined by a single '.' in the text: the same
// numbers in a list, a date, a score or a count are not the version.
func TestVersionDots(t *testing.T) {
	e := engineOver(t, query.Options{}, fileChanges(
		chat("list", "the steps 1, 2, 3 are done"),
		chat("date", "due 1/2/3 at noon"),
		chat("dash", "score 1-2-3 final"),
		chat("space", "count 1 2 3 go"),
		chat("vlist", "see v1, 2 and more"),
		chat("real", "upgrade to 1.2.3 now"),
		chat("tagged", "v1.2.3"),
		chat("worded", "version 1.2.3"),
		chat("semver", "1.2.3-beta.1"),
		chat("v12", "the v1.2 notes"),
	)...)
	all := []string{"real", "semver", "tagged", "worded"}
	checkPlain(t, e, []convCase{
		{"1.2.3", all},
		{"v1.2.3", all},
		{"v1.2", []string{"v12"}},
		{"1.2.*", []string{"real", "semver", "tagged", "v12", "worded"}},
	})
}
