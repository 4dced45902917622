package daemon

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/redact"
)

// BuildID identifies a build of convsearch for a client to compare with
// the daemon it goes through: version, plus the VCS revision and modified
// flag Go stamps into a binary built from a checkout, so that dev builds
// (all "dev") tell apart too, and the parsers' generation (their families
// and versions), so that builds without VCS stamping whose parsers read
// files differently tell apart as well. Two builds of the same modified
// checkout may still look alike: the redaction rules, which decide what
// the index may hold, are compared on their own (Info.Redaction).
func BuildID(version string) string {
	return fmt.Sprintf("%s, parsers %08x", buildVersion(version), all.Registry().Generation())
}

// buildVersion is version with the VCS revision Go stamped, if any.
func buildVersion(version string) string {
	if version == "" {
		version = "dev"
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	var rev string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += ", modified"
	}
	return fmt.Sprintf("%s (%s)", version, rev)
}

// rulesOff names the rules of a store opened with redaction off.
const rulesOff = "off"

// redaction returns the redactor of a store opened with so (nil when
// redaction is off) and the name of its rules: rulesOff, or the rule
// set's version.
func redaction(so StoreOptions) (*redact.Redactor, string) {
	if so.NoRedaction {
		return nil, rulesOff
	}
	red := redact.New()
	return red, red.Version()
}

// describeRules words rules for a person.
func describeRules(rules string) string {
	if rules == rulesOff {
		return "none (redaction off)"
	}
	return "rules " + rules
}

// Mismatch compares the daemon of dir, as its daemon file describes it,
// with this process: version is this binary's (BuildID is compared), so
// the store options this process would open the index with (their
// redaction rules are compared). Each difference is a sentence saying what
// it means and what to do; none when version is "" (not checked).
func (d *Info) Mismatch(dir, version string, so StoreOptions) []string {
	if version == "" {
		return nil
	}
	restart := fmt.Sprintf("restart it: `kill %d`, then `convsearch serve` (or restart its service)", d.PID)
	var out []string
	if mine := BuildID(version); d.Build != mine {
		theirs := d.Build
		if theirs == "" {
			// Builds that record theirs all do: this one is older.
			theirs = d.Version
			if theirs == "" {
				theirs = "unknown"
			}
			theirs += ", an older build"
		}
		out = append(out, fmt.Sprintf("the daemon of %s (pid %d) is another build of convsearch: it runs %s, this is %s; "+
			"its redaction rules and parsers stay in force for everything it indexes and answers until you %s",
			dir, d.PID, theirs, mine, restart))
	}
	if d.Redaction != "" {
		if _, mine := redaction(so); d.Redaction != mine {
			out = append(out, fmt.Sprintf("the daemon of %s (pid %d) indexes under redaction %s, while this convsearch and your config use %s: "+
				"what it indexes is kept under its rules; %s",
				dir, d.PID, describeRules(d.Redaction), describeRules(mine), strings.Replace(restart, "restart it:", "to apply yours, restart it:", 1)))
		}
	}
	return out
}
