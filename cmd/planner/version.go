package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// versionText is what planner --version prints: the module's version
// (a tag, a pseudo-version, or "(devel)" for a build from a work tree),
// the module path, and the version-control revision, commit time and
// whether the work tree had uncommitted changes, as go build stamps them
// into the binary (runtime/debug.ReadBuildInfo; `go build` adds the vcs
// settings when it builds inside a git checkout, `go install path@version`
// gives the version).
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "unknown (the binary carries no build information)\n"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nmodule %s\n", version, info.Main.Path)
	switch rev := settings["vcs.revision"]; {
	case rev == "":
		b.WriteString("revision unknown (built outside a git checkout, or with -buildvcs=false)\n")
	default:
		fmt.Fprintf(&b, "revision %s", rev)
		if settings["vcs.modified"] == "true" {
			b.WriteString(" with uncommitted changes")
		}
		b.WriteString("\n")
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, "committed %s\n", t)
		}
	}
	if info.GoVersion != "" {
		fmt.Fprintf(&b, "built with %s\n", info.GoVersion)
	}
	return b.String()
}
