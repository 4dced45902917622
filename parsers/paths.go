package parsers

import (
	"path/filepath"
	"strings"
)

// ElectronAppData is the folder Electron editors (VS Code and its forks,
// Cursor) keep their <Editor>/User data under: ~/Library/Application
// Support on macOS, %APPDATA% (else ~/AppData/Roaming) on Windows,
// $XDG_CONFIG_HOME (else ~/.config) elsewhere — a relative XDG value is
// ignored, as the spec says. "" when there is no home to start from.
func ElectronAppData(goos, home string, getenv func(string) string) string {
	return platformDir(goos, home, getenv, "APPDATA", "Roaming", "XDG_CONFIG_HOME", ".config")
}

// LocalDataDir is the folder tools written in Rust keep their data under
// (the dirs crate's data_local_dir): ~/Library/Application Support on
// macOS, %LOCALAPPDATA% (else ~/AppData/Local) on Windows, $XDG_DATA_HOME
// (else ~/.local/share) elsewhere — a relative XDG value is ignored, as the
// spec says. "" when there is no home to start from.
func LocalDataDir(goos, home string, getenv func(string) string) string {
	return platformDir(goos, home, getenv, "LOCALAPPDATA", "Local", "XDG_DATA_HOME", filepath.Join(".local", "share"))
}

// platformDir is the rule both of those follow, told which variables and
// fallbacks to use: ~/Library/Application Support on macOS; $winVar, else
// ~/AppData/winDir on Windows; $xdgVar when absolute, else ~/xdgDir.
func platformDir(goos, home string, getenv func(string) string, winVar, winDir, xdgVar, xdgDir string) string {
	switch goos {
	case "darwin", "ios":
		if home != "" {
			return filepath.Join(home, "Library", "Application Support")
		}
	case "windows":
		if d := getenv(winVar); d != "" {
			return d
		}
		if home != "" {
			return filepath.Join(home, "AppData", winDir)
		}
	default:
		if x := getenv(xdgVar); x != "" && filepath.IsAbs(x) {
			return x
		}
		if home != "" {
			return filepath.Join(home, xdgDir)
		}
	}
	return ""
}

// InFolder reports whether a folder on path's way (not its file name) is
// called name, in any case: a hint, beside the content, that a file is the
// tool's own (…/goose/sessions/x.jsonl).
func InFolder(path, name string) bool {
	for _, el := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if strings.EqualFold(el, name) {
			return true
		}
	}
	return false
}
