// Package fastpathbench holds the training fast path's benchmarks for `simgui bench` and `go
// test -bench` (Linux: the fast path's shared memory is a memfd).
//
// fastpath/step/1 is one env stepped per request — an action period of world steps and an
// 84×84 RGB frame written into shared memory — with the Go client (fastpath.Client); its
// baseline is the training API's api/step/84x84, the same step over HTTP with a JPEG frame.
// fastpath/step/16 steps 16 envs per request, in parallel on all cores, against
// fastpath/step/1; both report agent-steps/s. fastpath/hold/16 is the same request with every
// env held: the socket round trip and the request's bookkeeping alone.
//
// fastpath/reset/plain resets one env into a new episode per request, against a step;
// fastpath/reset/visual does so with visual randomization, against the plain reset. Both
// report resets/s and the process's CPU time per reset, after warmResets resets that make
// the textures a long run draws.
package fastpathbench
