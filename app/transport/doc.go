// Package transport is simgui's in-process message bus: typed publish/subscribe
// topics and request/reply services carrying protobuf messages from
// simgui/app/transport/msgs (full names "gz.msgs.Twist" and so on).
//
// It is the backbone between the world and its outside faces. The step loop
// publishes the clock, poses and sensor readings; the device bridge, the
// recorder, the window and the timeline publisher read them and publish
// commands back (which the world applies through its command queue, never
// directly).
//
// # Usage
//
//	bus := transport.NewBus(transport.Options{})
//	sub := bus.Subscribe("/model/car/cmd_vel", transport.WithQueueLen(8))
//	defer sub.Close()
//	_ = bus.Publish("/model/car/cmd_vel", &msgs.Twist{Linear: &msgs.Vector3D{X: 0.3}}, simTime)
//	m := <-sub.C() // m.Msg.(*msgs.Twist), m.Stamp == simTime
//
//	stop, _ := bus.Advertise("/world/default/control", "gz.msgs.WorldControl", "gz.msgs.Boolean", handler)
//	rep, err := bus.Call(ctx, "/world/default/control", &msgs.WorldControl{Pause: true}, time.Second)
//
// Topics are typed: the first Publish or DeclareTopic fixes a topic's full
// message name, and other types are refused with ErrTypeMismatch. Sim time
// travels with each message as Message.Stamp.
//
// # Concurrency
//
// Every method is safe for concurrent use.
//
// Publish never blocks on subscribers. Each subscription has a bounded queue
// (Options.QueueLen, default 64, or WithQueueLen); when it is full the oldest
// queued message is dropped and counted (Subscription.Dropped,
// TopicInfo.Dropped), so a slow reader sees the newest data and never slows
// the step loop. Publish only takes short locks: a read lock on the topic map
// and, per subscriber, that subscriber's queue lock.
//
// A subscription receives the messages of one publishing goroutine in the
// order they were published; messages from different goroutines interleave
// in no promised order. Delivery starts with the first Publish after
// Subscribe returns.
//
// Messages are not copied: every subscriber receives the same proto.Message
// the publisher passed. Publishers must not modify a message after Publish and
// subscribers must treat it as read-only (proto.Clone it to change it).
//
// HasSubscribers is one read-locked map lookup, meant to be asked per robot
// per step so that nobody builds messages nobody reads.
//
// Service handlers run on a goroutine of their own, one per Call, so they may
// run concurrently with each other and with the caller's goroutine. Call
// returns at its timeout even if the handler ignores its context; the handler
// then finishes in the background and its answer is discarded.
//
// Close closes every subscription channel (buffered messages stay readable)
// and makes later calls return ErrClosed.
package transport
