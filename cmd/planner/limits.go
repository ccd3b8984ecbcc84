package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"planner"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"planner/solver"
)

// limitFlags are the flags that bound a solve and show its progress.
type limitFlags struct {
	time     time.Duration
	memory   string
	progress string
}

func (f *limitFlags) add(cmd *cobra.Command, timeHelp string) {
	cmd.Flags().DurationVar(&f.time, "time-limit", 0, timeHelp)
	cmd.Flags().StringVar(&f.memory, "memory-limit", "", "stop once the process holds this much memory (e.g. 4GiB, 512MiB) and report the best plan so far")
	cmd.Flags().StringVar(&f.progress, "progress", "auto", "a progress line on standard error for solves longer than a second: auto (when it is a terminal), always or never")
}

// options reads the flags into the library's options, with the progress
// line written to stderr. Call done after the solve: it clears the
// progress line.
func (f *limitFlags) options(backend string, stderr io.Writer) (opt planner.Options, done func(), err error) {
	opt = planner.Options{Backend: backend}
	done = func() {}
	if f.time < 0 {
		return opt, done, fmt.Errorf("--time-limit %v: expected a positive duration (or 0 for none)", f.time)
	}
	if !slices.Contains([]string{"auto", "always", "never"}, f.progress) {
		return opt, done, badFlag("progress", f.progress, "auto", "always", "never")
	}
	if f.memory != "" {
		n, err := parseBytes(f.memory)
		if err != nil {
			return opt, done, fmt.Errorf("--memory-limit %s: %v", f.memory, err)
		}
		opt.MemoryLimit = n
	}
	var show bool
	switch f.progress {
	case "auto":
		show = isTerminal(stderr)
	case "always":
		show = true
	}
	if show {
		line := &progressLine{w: stderr}
		opt.Progress = line.show
		done = line.clear
	}
	return opt, done, nil
}

// graphContext is the context one graph of a bench runs under: parent,
// and the time limit from now.
func (f *limitFlags) graphContext(parent context.Context) (context.Context, context.CancelFunc) {
	if f.time <= 0 {
		return context.WithCancel(parent)
	}
	return solver.WithTimeLimit(parent, f.time)
}

// context is the context a command runs under: cancelled by Ctrl-C and,
// with --time-limit, at the limit, with solver.TimeLimit as its cause.
// Made when the command starts, it bounds all of it: reading the records
// and the graph, the build, the search, the plan and its verification,
// and (by the time the library leaves for it) the writing. Call cancel
// when the command is done.
func (f *limitFlags) context() (ctx context.Context, cancel func()) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	if f.time <= 0 {
		return ctx, stop
	}
	ctx, stopTimer := solver.WithTimeLimit(ctx, f.time)
	return ctx, func() { stopTimer(); stop() }
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressLine rewrites one line of stderr in place.
type progressLine struct {
	w     io.Writer
	width int // of the last line written, to blank it
}

func (l *progressLine) show(p solver.Progress) {
	text := progressText(p)
	pad := max(l.width-len(text), 0)
	fmt.Fprintf(l.w, "\r%s%s", text, strings.Repeat(" ", pad))
	l.width = len(text)
}

func (l *progressLine) clear() {
	if l.width > 0 {
		fmt.Fprintf(l.w, "\r%s\r", strings.Repeat(" ", l.width))
		l.width = 0
	}
}

// progressText is one progress line: elapsed time, phase and its count,
// the incumbent and bound of the search, and the memory held.
func progressText(p solver.Progress) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%6.1fs  %s", p.Elapsed.Seconds(), p.Phase)
	if p.Pass != "" {
		fmt.Fprintf(&b, " (%s)", p.Pass)
	}
	switch p.Phase {
	case "search":
		if p.Pass != "" {
			break // encoding: nothing counted yet
		}
		calls := "SAT calls"
		if p.Done == 1 {
			calls = "SAT call"
		}
		fmt.Fprintf(&b, ": %d %s", p.Done, calls)
		if p.Incumbent < solver.Inf {
			fmt.Fprintf(&b, ", best %d", p.Incumbent)
		}
		fmt.Fprintf(&b, ", bound %d", p.Bound)
	case "reduce":
		fmt.Fprintf(&b, ": %d of %d nodes reduced", p.Done, p.Total)
	case "plan":
		b.WriteString(": writing the plan and replaying it in the verifier")
	case "read":
		fmt.Fprintf(&b, ": reading and checking %.1f MiB of text", float64(p.Total)/(1<<20))
	default:
		fmt.Fprintf(&b, ": %d of %d", p.Done, p.Total)
	}
	fmt.Fprintf(&b, "  %d MiB", p.Memory>>20)
	return b.String()
}

// parseBytes reads a size: a whole number with an optional unit B, KiB,
// MiB, GiB, TiB (powers of 1024) or kB, MB, GB, TB (powers of 1000).
// errTooLarge is parseBytes's error for a number of bytes that does not
// fit in 63 bits.
var errTooLarge = errors.New("too large")

func parseBytes(s string) (uint64, error) {
	units := []struct {
		suffix string
		mul    uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	num, mul := strings.TrimSpace(s), uint64(1)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, mul = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mul
			break
		}
	}
	n, err := strconv.ParseUint(num, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, errTooLarge
	}
	if err != nil || n == 0 {
		return 0, fmt.Errorf("want a positive whole number of bytes with an optional unit (B, KiB, MiB, GiB, TiB, kB, MB, GB, TB)")
	}
	if n > (1<<63)/mul {
		return 0, errTooLarge
	}
	return n * mul, nil
}
