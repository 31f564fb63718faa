package control

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/gorilla/websocket"
)

// sessionState is what making room needs to know of an open session; under Service.mu.
type sessionState struct {
	busy     bool      // answering a request
	lastUsed time.Time // when it opened or last answered
}

// makeRoomLocked makes a place for a new session. With MaxSessions open, the session idle the
// longest is closed with a close frame saying why (1013, try again later), so that sessions
// left open by clients — or opened to lock others out — never keep a new client away; a
// session that trickles a request counts as idle. It reports false when every session is
// answering a request. s.mu held.
func (s *Service) makeRoomLocked(newPeer string) bool {
	if len(s.sessions)+s.upgrades < s.opts.MaxSessions {
		return true
	}
	var victim *websocket.Conn
	var oldest *sessionState
	for c, st := range s.sessions {
		if !st.busy && (oldest == nil || st.lastUsed.Before(oldest.lastUsed)) {
			victim, oldest = c, st
		}
	}
	if victim == nil {
		return false
	}
	delete(s.sessions, victim) // its goroutine ends when the close below reaches its read
	// A client reconnecting in a loop makes room at every connection: a line each filled the
	// log at 400 KB a second.
	if ok, leftOut := s.evictLog.Allow(); ok {
		s.log.Info("control: closed the session idle the longest to make room", "peer", victim.RemoteAddr(),
			"idle", time.Since(oldest.lastUsed).Round(time.Millisecond), "new peer", newPeer, "limit", s.opts.MaxSessions,
			"notLoggedSinceLast", leftOut)
	}
	msg := websocket.FormatCloseMessage(websocket.CloseTryAgainLater,
		fmt.Sprintf("closed to make room for a new session (at most %d are open)", s.opts.MaxSessions))
	go func() {
		victim.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
		victim.Close()
	}()
	return true
}

func (s *Service) setBusy(st *sessionState, busy bool) {
	s.mu.Lock()
	st.busy = busy
	if !busy {
		st.lastUsed = time.Now()
	}
	s.mu.Unlock()
}

// recoverSession, deferred by ServeHTTP, ends a session whose handling panicked with a log
// line naming the client; the service and the world go on.
func (s *Service) recoverSession(peer string) {
	if r := recover(); r != nil {
		s.log.Error("control: a session failed; closed it", "peer", peer, "panic", r, "stack", string(debug.Stack()))
	}
}
