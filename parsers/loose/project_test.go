package loose

import "testing"

func TestProjectName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/tmp/gfxrepo", "gfxrepo"},
		{"/Users/dana/src/platform-infra/", "platform-infra"},
		{`C:\Users\mika\src\report-service`, "report-service"},
		{`C:\Users\mika\src\report-service\`, "report-service"},
		{`D:/work/mixed\sep`, "sep"},
		{`C:\`, ""},
		{`C:`, ""},
		{"/", ""},
		{"", ""},
		{"relative", "relative"},
	}
	for _, tt := range tests {
		if got := ProjectName(tt.in); got != tt.want {
			t.Errorf("ProjectName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
