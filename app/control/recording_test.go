package control

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"simgui/app/record"

	"github.com/gorilla/websocket"
)

// startRecording starts a control service recording into a folder of its own and a client
// that has started a recording named filename; it returns the service, the folder and the
// client.
func startRecording(t *testing.T, filename string) (*env, string, *websocket.Conn) {
	t.Helper()
	dir := t.TempDir()
	e := start(t, Options{RecordDir: dir})
	c := e.dial(t, "/control", nil)
	if got := askJSON(t, c, `{"command":"start_record","filename":"`+filename+`"}`)["result"]; got != "True" {
		t.Fatalf("start_record answered %v", got)
	}
	return e, dir, c
}

func TestRecordCommands(t *testing.T) {
	e, dir, c := startRecording(t, "runs/first")
	// Named as the client named it: the record directory's path is not the client's business.
	if got := askJSON(t, c, `{"command":"start_record","filename":"second"}`)["result"].(string); got != "already recording to runs/first.mcap; send stop_record first" {
		t.Fatalf("second start_record answered %q", got)
	}
	askJSON(t, c, `{"command":"step","steps":300}`)
	if got := askJSON(t, c, `{"command":"stop_record"}`)["result"]; got != "True" {
		t.Fatalf("stop_record answered %v", got)
	}
	if got := askJSON(t, c, `{"command":"stop_record"}`)["result"]; got != "True" {
		t.Fatalf("stop_record without recording answered %v", got)
	}
	rec, err := record.ReadFile(filepath.Join(dir, "runs", "first.mcap"))
	if err != nil {
		t.Fatal(err)
	}
	counts := rec.Counts()
	if !rec.Complete || counts["/clock"] != 300 || counts["/model/car0/pose"] != 300 {
		t.Fatalf("recording complete=%v counts %v", rec.Complete, counts)
	}
	for _, name := range []string{"../escape", "/tmp/abs", "a/../../b", "a/../ok1", "new1/new2/../f"} {
		got := askJSON(t, c, `{"command":"start_record","filename":"`+name+`"}`)["result"]
		if got != "filename must be a relative path inside the record directory (no .. and not absolute)" {
			t.Errorf("start_record %s answered %v", name, got)
		}
	}
	for name, want := range map[string]string{
		"sub/":                        "filename must end in a file's name",
		".":                           "filename must end in a file's name",
		"runs/.hidden":                "filename must end in a file's name",
		"a\nb":                        "filename must not hold control characters",
		strings.Repeat("z/", 9) + "f": "filename goes 9 folders deep; at most 8",
	} {
		b, _ := json.Marshal(map[string]string{"command": "start_record", "filename": name})
		if got := askJSON(t, c, string(b))["result"].(string); !strings.HasPrefix(got, want) {
			t.Errorf("start_record %q answered %q, want %q", name, got, want)
		}
	}
	// A file that cannot be made leaves no folders made for it, and the answer names the file
	// as given, not the record directory's path.
	long := "left/over/" + strings.Repeat("b", 300)
	if got := askJSON(t, c, `{"command":"start_record","filename":"`+long+`"}`)["result"].(string); !strings.HasPrefix(got, "record "+long+".mcap: ") || strings.Contains(got, dir) {
		t.Errorf("start_record of a name too long answered %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "left")); !os.IsNotExist(err) {
		t.Errorf("the folders made for a file that could not be made are still there: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "taken.mcap"), nil, 0o644)
	if got := askJSON(t, c, `{"command":"start_record","filename":"taken.mcap"}`)["result"].(string); !strings.Contains(got, "exists") {
		t.Fatalf("start_record over a file answered %q", got)
	}
	// Shutdown closes a running recording cleanly, and so do two at once (a signal ends
	// Serve's context while the host shuts its faces down): neither returns before the file
	// is whole, or the process could exit with its footer unwritten.
	askJSON(t, c, `{"command":"start_record","filename":"last"}`)
	askJSON(t, c, `{"command":"step","steps":3}`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			if err := e.svc.Shutdown(ctx); err != nil {
				errs <- err
				return
			}
			rec, err := record.ReadFile(filepath.Join(dir, "last.mcap"))
			if err == nil && (!rec.Complete || rec.Counts()["/clock"] != 3) {
				err = fmt.Errorf("complete %v, counts %v", rec.Complete, rec.Counts())
			}
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("recording after shutdown: %v", err)
		}
	}
}
