// Package contrib holds the files that run convsearch in the background,
// embedded so that `convsearch setup --service` installs the very files
// this folder documents.
package contrib

import _ "embed"

// SystemdUnit is systemd/convsearch.service, a user unit.
//
//go:embed systemd/convsearch.service
var SystemdUnit string

// LaunchdPlist is launchd/io.github.convsearch.plist, a user agent with
// __CONVSEARCH__ and __HOME__ to fill in.
//
//go:embed launchd/io.github.convsearch.plist
var LaunchdPlist string
