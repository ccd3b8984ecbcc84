package golden

import (
	"slices"
	"testing"
)

func TestSampleAndCount(t *testing.T) {
	all := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	t.Setenv(LongEnv, "")
	for _, c := range []struct {
		n    int
		want []int
	}{
		{1, []int{0}},
		{2, []int{0, 9}},
		{4, []int{0, 3, 6, 9}},
		{10, all},
		{20, all},
	} {
		if got := Sample(all, c.n); !slices.Equal(got, c.want) {
			t.Errorf("Sample(0..9, %d) = %v, want %v", c.n, got, c.want)
		}
	}
	if Count(3, 30) != 3 || LongTests() {
		t.Errorf("without %s: Count(3, 30) = %d, LongTests %v", LongEnv, Count(3, 30), LongTests())
	}
	t.Setenv(LongEnv, "1")
	if got := Sample(all, 2); !slices.Equal(got, all) || Count(3, 30) != 30 || !LongTests() {
		t.Errorf("with %s=1: Sample(0..9, 2) = %v, Count(3, 30) = %d", LongEnv, got, Count(3, 30))
	}
}

func TestLongSkips(t *testing.T) {
	t.Setenv(LongEnv, "")
	ran := false
	t.Run("long", func(t *testing.T) {
		Long(t)
		ran = true
	})
	if ran {
		t.Errorf("without %s, a long test ran on", LongEnv)
	}
}
