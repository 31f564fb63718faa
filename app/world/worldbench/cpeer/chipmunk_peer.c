// The C peer of the 1000-robot scene: the same walls, robot boxes and drive law as
// the bare cp/v2 case (worldbench.go), stepped by Chipmunk 7 (Debian's libchipmunk). Built at bench
// time into a shared library and loaded through purego; Go hands in the scene as arrays, so
// the layout lives in one place (the Go side).
#include <chipmunk/chipmunk.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
	cpSpace *space;
	int n;
	cpBody **bodies; // the robots
	cpBody **all;    // every body, walls first, one shape each
	cpShape **shapes;
	int nall;
	double *targets; // vT, wT per robot
	double dt, accel, yawAcc, grip;
} peer;

// A debug build of Chipmunk prints a banner on stdout at its first cpSpaceNew; simgui bench
// --json owns stdout, so the first space is made with stdout pointed at /dev/null.
static void quiet_first_space(void) {
	static int done = 0;
	if (done) return;
	done = 1;
	fflush(stdout);
	int saved = dup(1), nul = open("/dev/null", O_WRONLY);
	if (saved < 0 || nul < 0) {
		if (saved >= 0) close(saved);
		if (nul >= 0) close(nul);
		return;
	}
	dup2(nul, 1);
	cpSpaceFree(cpSpaceNew());
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(nul);
}

// robots: x, y, yaw, vT, wT per robot. walls: x, y, length, width per wall.
// params: dt, accel, yawAcc, grip, mass, length, width, friction, wallFriction, slop, iterations.
void *peer_new(int n, const double *robots, int nw, const double *walls, const double *params) {
	quiet_first_space();
	peer *p = calloc(1, sizeof *p);
	if (!p) return NULL;
	p->n = n;
	p->bodies = calloc(n + 1, sizeof *p->bodies);
	p->all = calloc(n + nw + 1, sizeof *p->all);
	p->shapes = calloc(n + nw + 1, sizeof *p->shapes);
	p->targets = calloc(2 * (n + 1), sizeof *p->targets);
	if (!p->bodies || !p->all || !p->shapes || !p->targets) {
		free(p->bodies);
		free(p->all);
		free(p->shapes);
		free(p->targets);
		free(p);
		return NULL;
	}
	p->dt = params[0];
	p->accel = params[1];
	p->yawAcc = params[2];
	p->grip = params[3];
	double mass = params[4], len = params[5], wid = params[6], fric = params[7], wallFric = params[8];
	p->space = cpSpaceNew();
	cpSpaceSetCollisionSlop(p->space, params[9]);
	cpSpaceSetIterations(p->space, (int)params[10]);
	for (int i = 0; i < nw; i++) {
		const double *w = walls + 4 * i;
		cpBody *b = cpSpaceAddBody(p->space, cpBodyNewStatic());
		cpBodySetPosition(b, cpv(w[0], w[1]));
		cpShape *s = cpSpaceAddShape(p->space, cpBoxShapeNew(b, w[2], w[3], 0));
		cpShapeSetFriction(s, wallFric);
		p->all[p->nall] = b;
		p->shapes[p->nall++] = s;
	}
	for (int i = 0; i < n; i++) {
		const double *r = robots + 5 * i;
		cpBody *b = cpSpaceAddBody(p->space, cpBodyNew(mass, cpMomentForBox(mass, len, wid)));
		cpBodySetPosition(b, cpv(r[0], r[1]));
		cpBodySetAngle(b, r[2]);
		cpShape *s = cpSpaceAddShape(p->space, cpBoxShapeNew(b, len, wid, 0));
		cpShapeSetFriction(s, fric);
		p->bodies[i] = b;
		p->all[p->nall] = b;
		p->shapes[p->nall++] = s;
		p->targets[2 * i] = r[3];
		p->targets[2 * i + 1] = r[4];
	}
	return p;
}

static double approach(double v, double target, double step) {
	if (v < target) return fmin(v + step, target);
	return fmax(v - step, target);
}

// peer_step runs k steps: the drive law on every robot, then cpSpaceStep.
void peer_step(void *h, int k) {
	peer *p = h;
	for (int s = 0; s < k; s++) {
		for (int i = 0; i < p->n; i++) {
			cpBody *b = p->bodies[i];
			cpVect rot = cpBodyGetRotation(b), v = cpBodyGetVelocity(b);
			double fwd = cpvdot(v, rot), lat = -cpvcross(v, rot);
			fwd = approach(fwd, p->targets[2 * i], p->accel * p->dt);
			lat = approach(lat, 0, p->grip * p->dt);
			cpBodySetVelocity(b, cpv(fwd * rot.x - lat * rot.y, fwd * rot.y + lat * rot.x));
			cpBodySetAngularVelocity(b, approach(cpBodyGetAngularVelocity(b), p->targets[2 * i + 1], p->yawAcc * p->dt));
		}
		cpSpaceStep(p->space, p->dt);
	}
}

static void count_arbiter(cpBody *b, cpArbiter *arb, void *data) {
	(void)b;
	(void)arb;
	(*(int *)data)++;
}

// peer_stats writes the mean planar speed and the number of body-arbiter links (each
// robot-robot contact counts twice, each robot-wall contact once), to check the C scene moves
// like the Go one.
void peer_stats(void *h, double *meanSpeed, int *links) {
	peer *p = h;
	double sum = 0;
	int c = 0;
	for (int i = 0; i < p->n; i++) {
		sum += cpvlength(cpBodyGetVelocity(p->bodies[i]));
		cpBodyEachArbiter(p->bodies[i], count_arbiter, &c);
	}
	*meanSpeed = p->n > 0 ? sum / p->n : 0;
	*links = c;
}

void peer_free(void *h) {
	peer *p = h;
	if (!p) return;
	for (int i = 0; i < p->nall; i++) {
		cpSpaceRemoveShape(p->space, p->shapes[i]);
		cpShapeFree(p->shapes[i]);
		cpSpaceRemoveBody(p->space, p->all[i]);
		cpBodyFree(p->all[i]);
	}
	cpSpaceFree(p->space);
	free(p->all);
	free(p->shapes);
	free(p->bodies);
	free(p->targets);
	free(p);
}
