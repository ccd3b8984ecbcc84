package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionText(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/planner", Version: "v0.4.1"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-25T08:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	clean := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "planner", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.modified", Value: "false"}}}
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"stamped", stamped, true, "v0.4.1\nmodule example.com/planner\nrevision 0123456789abcdef0123456789abcdef01234567 with uncommitted changes\ncommitted 2026-11-25T08:00:00Z\nbuilt with go1.26.0\n"},
		{"clean", clean, true, "(devel)\nmodule planner\nrevision 0123456789abcdef0123456789abcdef01234567\nbuilt with go1.26.0\n"},
		{"no vcs", &debug.BuildInfo{Main: debug.Module{Path: "planner"}}, true, "(devel)\nmodule planner\nrevision unknown (built outside a git checkout, or with -buildvcs=false)\n"},
		{"no build information", nil, false, "unknown (the binary carries no build information)\n"},
	} {
		if got := versionText(c.info, c.ok); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// planner --version prints the test binary's own build information.
func TestVersionFlag(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"--version"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	info, ok := debug.ReadBuildInfo()
	if want := "planner " + versionText(info, ok); out.String() != want {
		t.Errorf("planner --version printed\n%s\nwant\n%s", out.String(), want)
	}
	if !ok || info.Main.Path == "" || !strings.Contains(out.String(), "\nmodule "+info.Main.Path+"\n") {
		t.Errorf("no module path: %s", out.String())
	}
}
