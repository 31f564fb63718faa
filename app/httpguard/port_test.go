package httpguard

import "testing"

func TestPortFromEnv(t *testing.T) {
	const name = "SIMGUI_TEST_PORT"
	for _, c := range []struct {
		val  string
		want int
		err  bool
	}{{"", 8000, false}, {"0", 0, false}, {"8011", 8011, false}, {"65535", 65535, false}, {"65536", 0, true}, {"-1", 0, true}, {"80a", 0, true}} {
		t.Setenv(name, c.val)
		got, err := PortFromEnv(name, 8000)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("%s=%q: %d, %v", name, c.val, got, err)
		}
	}
}
