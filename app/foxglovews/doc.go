// Package foxglovews is the live view face: a Foxglove WebSocket server (subprotocol
// foxglove.websocket.v1) of the active world, so that Foxglove draws the running simulation
// as it draws a recording (app/record).
//
// A client is told of a channel per topic: each sensor's topic as gz.msgs and, for cameras,
// depth cameras and lidars, its Foxglove view on the topic with foxview.ViewSuffix; the
// world's pose list and its transforms; the scene (foxview.SceneTopic, the track and each
// robot's shape and each pushable box, moved by the transforms); and every other topic of a known type on the world's bus. All are protobuf,
// their schemas FileDescriptorSets. A subscribed channel's messages come as the world
// publishes them, stamped with the wall clock (a world's sim time starts again at each reset);
// a subscription is what makes a sensor publish, so channels nobody watches cost nothing.
// The scene comes when a client subscribes and again when robots come or go.
//
// The channel list is looked at again every second while clients are connected, and when the
// active world changes: new channels are advertised, gone ones unadvertised (their
// subscriptions end; unsubscribing them after is quiet), and the subscribed ones follow the new
// world. What waits for a client is its server messages, written first, and each
// subscription's newest message: a client that reads slower than the world publishes gets the
// latest of every topic and loses those in between, never frames that grow older. One that
// sends what the server does not serve gets a status message saying so. Connections pass the
// same checks as the control socket's (package httpguard): Host, Origin and the token. Past
// the clients the server takes, a newcomer takes the place of a client that has subscribed to
// nothing since it connected (Options.IdleGrace).
package foxglovews
