package app

import (
	"fmt"
	"log/slog"
	"testing"
)

// Notices are kept for the window, oldest first and at most maxNotices of them.
func TestHostNotices(t *testing.T) {
	h := NewHost(HostOptions{Logger: slog.New(slog.DiscardHandler)})
	defer h.Close()
	if n := h.Notices(); len(n) != 0 {
		t.Fatalf("a new host's notices: %v", n)
	}
	for i := range maxNotices + 3 {
		h.Notice(fmt.Sprintf("notice %d", i), "i", i)
	}
	n := h.Notices()
	if len(n) != maxNotices || n[0] != "notice 0" || n[maxNotices-1] != fmt.Sprintf("notice %d", maxNotices-1) {
		t.Fatalf("notices %v", n)
	}
}
