// Package timeline is the systems.timeline_publisher system (Gazebo's TimelinePublisher, also
// registered as "systems::TimelinePublisher" and "gz-sim-timeline-publisher-system"): it
// publishes messages and calls services at keyframes on simulation time, optionally looping,
// so that a scenario can script a run — velocity commands, joint targets, world control —
// without an external script.
//
// # Configuration
//
// In a scenario, as YAML (parameters, units and defaults: Config, Keyframe, Output, Service):
//
//	plugins:
//	  - type: systems.timeline_publisher
//	    model: ego            # optional: start when this model appears
//	    config:
//	      loop: true
//	      period: 4
//	      keyframes:
//	        - time: 0
//	          outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist, content: "linear { x: 0.3 }"}]
//	        - time: 2
//	          outputs: [{topic: /model/ego/cmd_vel, type: gz.msgs.Twist, content: "angular { z: 1 }"}]
//	          services: [{name: /world/default/control, reqType: gz.msgs.WorldControl,
//	                      repType: gz.msgs.Boolean, timeout: 500, reqMsg: "pause: true"}]
//
// or as the seed's <plugin> element pasted verbatim: `- xml: "<plugin ...>...</plugin>"` (see
// Publisher.ConfigureXML). Every message is parsed from protobuf text when the scenario
// loads; an unknown type or bad text is a load error naming the keyframe.
//
// # When keyframes fire
//
// The timeline has its own clock, which is sim time since the timeline started. It starts on
// the first step after the system is loaded (the world at rest or paused does not step, so
// this is the first unpaused step, or a single step taken while paused); attached to a model,
// on the first step on which that model exists — a model spawned later starts its timeline
// when it appears. Pausing freezes the timeline and stepping steps it, because only steps
// advance sim time.
//
// A step covers the timeline interval (end of the previous step, end of this step]; the first
// step of a run covers [0, end] so that a keyframe at time 0 fires on it. With a system
// frequency the system is called less often, and each call covers the sim time since the
// previous call (the dt the world hands it), so the timeline keeps sim time whatever the call
// rate: a keyframe fires on the first call at or after its time (frequency 2 Hz in a world
// stepping 0.1 s: keyframes at 0, 0.1 and 0.7 s fire at 0.5, 0.5 and 1.0 s). A keyframe fires
// (its outputs are published, stamped with the sim time at the end of the step, and its
// service calls queued) in phase 1 of the step whose interval contains its time. The world
// applies commands received on a topic at the start of the next step, which begins at the end
// of this one: a cmd_vel keyframe at t = k·stepSize drives the model from sim time t on. A
// keyframe at time 0 takes effect one step late, from the end of the first step.
//
// With loop, cycle c covers [c·period, (c+1)·period], so a keyframe at time = period and the
// next cycle's keyframe at 0 fire on the same step, in that order. When a step covers more
// than one cycle (its interval is longer than the period: a period shorter than the step, or
// a system frequency below the period's), only the latest cycle fires. Keyframes with the
// same time fire in the order listed. Without loop the timeline ends after its last keyframe.
//
// The timeline starts over, from time 0 on the next step, when the world is reset, when sim
// time goes back (a step starts before the previous one ended), and when the attached model
// is replaced by a new model of the same name. While the attached model is absent the
// timeline is stopped.
//
// # Service calls
//
// Calls are made in the order queued, one at a time, on the Publisher's worker goroutine, so
// a slow service never slows the step; their effect is not tied to an exact step. Each waits
// for its reply at most its timeout. When a new cycle starts, calls still waiting from before
// the previous cycle are dropped, so a slow service cannot make the calls fall further and
// further behind; calls still waiting at a world reset are dropped; removing the system
// (World.RemoveSystem, World.Close) drops the waiting calls and waits for the call in
// progress, at most its timeout. Stats counts what was published, called and dropped.
//
// # Concurrency
//
// Init, Step, Reset and Shutdown run on the loop goroutine, as the world requires; the worker
// goroutine only calls the transport bus. Messages are parsed once and shared by every
// publish and call: subscribers and handlers must treat them as read-only.
package timeline
