package control

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"simgui/app/record"
)

// A recording whose disk fills is ended whole, and stop_record says so naming the file as the
// client named it, once: it answered "record /abs/dir/full.mcap: write /abs/dir/full.mcap:
// write /abs/dir/full.mcap: no space left on device". The file-size limit of the process
// stands in for the full disk.
func TestStopRecordOnAFullDisk(t *testing.T) {
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	e := start(t, Options{RecordDir: dir})
	c := e.dial(t, "/control", nil)
	if got := askJSON(t, c, `{"command":"start_record","filename":"full"}`)["result"]; got != "True" {
		t.Fatalf("start_record answered %v", got)
	}
	lim := was
	lim.Cur = 4 << 10 // less than the first chunk
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Skip(err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &was); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer restore()
	askJSON(t, c, `{"command":"step","steps":300}`)
	got, _ := askJSON(t, c, `{"command":"stop_record"}`)["result"].(string)
	restore()
	if !strings.HasPrefix(got, "record full.mcap: write: file too large; the file ends after its last whole chunk") || strings.Contains(got, dir) {
		t.Fatalf("stop_record answered %q", got)
	}
	rec, err := record.ReadFile(filepath.Join(dir, "full.mcap"))
	if err != nil || !rec.Complete || rec.Truncated {
		t.Fatalf("the file: %+v, %v", rec, err)
	}
}
