// Package systems is the registry of simgui's systems (simulation plugins): behaviour that
// hooks into the world's step, registered by a dotted name with a constructor, as Caddy modules
// are, and built from a scenario's `plugins:` entries.
//
// A module's New returns a fresh value (no side effects) implementing any of world.Initer,
// world.Stepper, world.PostStepper, world.Resetter and world.Shutdowner. Build decodes the
// entry's config strictly onto that value — an unknown key is an error naming the key and the
// system — then calls Validate if the value has it. Built-in systems live in sub-folders and
// register in init; app/systems/standard imports them all.
package systems
