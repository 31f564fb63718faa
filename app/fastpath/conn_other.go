//go:build !linux

package fastpath

import "net"

// peerIsUser trusts the socket's mode where the fast path does not run (it needs Linux).
func peerIsUser(*net.UnixConn) bool { return true }

// blockReads keeps the poller's reads where the fast path does not run (it needs Linux).
func (s *session) blockReads() {}

// watchHangUp leaves s.gone open where the fast path does not run (it needs Linux).
func (s *session) watchHangUp() { s.gone = make(chan struct{}) }

// hangUp ends the connection.
func (s *session) hangUp() { s.conn.Close() }
