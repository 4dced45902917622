package loose

import "strings"

// ProjectName is the project a working directory stands for: its last
// element, whether the path is Unix or Windows; "" for a root or a bare
// Windows drive.
func ProjectName(dir string) string {
	dir = strings.TrimRight(dir, `/\`)
	if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
		dir = dir[i+1:]
	}
	if strings.HasSuffix(dir, ":") { // a bare Windows drive
		return ""
	}
	return dir
}
