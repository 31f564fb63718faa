package control

import (
	"path/filepath"
	"strings"
	"testing"

	"simgui/app/record"
	"simgui/app/record/recordtest"
)

// A recording whose disk fills is ended whole, and stop_record says so naming the file as the
// client named it, once: it answered "record /abs/dir/full.mcap: write /abs/dir/full.mcap:
// write /abs/dir/full.mcap: no space left on device". The file-size limit of the process
// stands in for the full disk.
func TestStopRecordOnAFullDisk(t *testing.T) {
	if !recordtest.InChild(t) {
		return
	}
	_, dir, c := startRecording(t, "full")
	lift := recordtest.LimitFileSize(t, 4<<10) // less than the first chunk
	askJSON(t, c, `{"command":"step","steps":300}`)
	got, _ := askJSON(t, c, `{"command":"stop_record"}`)["result"].(string)
	lift()
	if !strings.HasPrefix(got, "record full.mcap: write: file too large; the file ends after its last whole chunk") || strings.Contains(got, dir) {
		t.Fatalf("stop_record answered %q", got)
	}
	rec, err := record.ReadFile(filepath.Join(dir, "full.mcap"))
	if err != nil || !rec.Complete || rec.Truncated {
		t.Fatalf("the file: %+v, %v", rec, err)
	}
}
