package foxglovews

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A client that subscribes to a channel and unsubscribes again and again costs the world one
// feed, not one per subscription: the feed stays on the world's bus while it is wanted again
// before its next message. Stopping it at each unsubscribe and starting another at each
// subscribe let four clients start feeds faster than the stopped ones could leave the bus:
// 50,000 of them on the pose topic slowed the world from 200 steps a second to 5, for minutes
// after the clients had gone.
func TestLiveViewSubscribeChurnKeepsOneFeed(t *testing.T) {
	sim, addr := liveWorld(t, &Face{})
	v := dial(t, "ws://"+addr+"/")
	const topic = "/world/default/pose/info"
	id := num(v.listed(topic)[topic]["id"])
	before := sim.Bus.SubscriptionsTo(topic)
	for range 200 {
		v.send(`{"op":"subscribe","subscriptions":[{"id":1,"channelId":` + id + `}]}`)
		v.send(`{"op":"unsubscribe","subscriptionIds":[1]}`)
	}
	v.send(`{"op":"subscribe","subscriptions":[{"id":1,"channelId":` + id + `}]}`)
	// Requests are answered in order: with this one's answer, the server has taken them all.
	// The lockstep world has published nothing meanwhile, so no feed had a message at which
	// to retire.
	v.send(`{"op":"unsubscribe","subscriptionIds":[99]}`)
	if st := v.next("status"); !strings.Contains(st["message"].(string), "no subscription 99") {
		t.Fatalf("status %v, want the unknown subscription 99's", st)
	}
	// Step until the subscription's first message comes, so that every feed started so far
	// has subscribed to the bus.
	ctx := context.Background()
	for got := false; !got; {
		if _, err := sim.Loop.Step(ctx, 1); err != nil {
			t.Fatal(err)
		}
		select {
		case <-v.data:
			got = true
		case <-time.After(10 * time.Millisecond):
		}
	}
	if made := sim.Bus.SubscriptionsTo(topic) - before; made != 1 {
		t.Errorf("201 subscriptions, one after the other, made %d subscriptions to %s on the world's bus, want 1", made, topic)
	}

	// Unsubscribed, the feed leaves the bus at the world's next message, so that what
	// publishes only for listeners (a camera draws only for someone) stops.
	v.send(`{"op":"unsubscribe","subscriptionIds":[1]}`)
	v.send(`{"op":"unsubscribe","subscriptionIds":[98]}`) // answered after the one before is done
	if st := v.next("status"); !strings.Contains(st["message"].(string), "no subscription 98") {
		t.Fatalf("status %v, want the unknown subscription 98's", st)
	}
	for sim.Bus.HasSubscribers(topic) {
		if _, err := sim.Loop.Step(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
}
