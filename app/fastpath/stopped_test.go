package fastpath

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"simgui/app/scenario"
)

// When the envs' worlds stop under a session (simgui shutting down: SIGTERM, Ctrl-C, its
// window closed), the step says so once and the session ends. It answered
// "env 3: world loop stopped\nenv 0: world loop stopped\n..." (a line per env, 16 with 16
// envs) to this step and the next, which said nothing of simgui going away. The worlds are
// stopped here as the host's shutdown stops them, without ending the host.
func TestStoppedWorldsEndTheSessionSayingWhy(t *testing.T) {
	h, f := startFace(t, scenario.Default())
	c := dial(t, f.Addr())
	c.open(OpenRequest{Envs: 4, FrameWidth: 16, FrameHeight: 16})
	c.resetAll(1)
	c.stepAll([3]float64{0.5, 0})
	h.RemoveEpisode(c.rep.Session)
	_, err := c.step([]byte{kindStep, kindStep, kindStep, kindStep}, make([][3]float64, 4), make([]int64, 4))
	if err == nil {
		t.Fatal("a step of stopped worlds succeeded")
	}
	msg := err.Error()
	if !strings.Contains(msg, "shutting down") || strings.Count(msg, "world loop stopped") != 1 {
		t.Errorf("the step of stopped worlds answered %q; want one line saying simgui is shutting down", msg)
	}
	c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	var b [1]byte
	if n, err := c.conn.Read(b[:]); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the session is still open (read %d bytes, %v)", n, err)
	}
}
