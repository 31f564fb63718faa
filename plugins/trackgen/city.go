package trackgen

import (
	"fmt"
	"math/rand/v2"

	"simgui/plugins"
)

func init() { Register("city_grid", Func(cityGrid), plugins.FloorNone) }

// The city block layout of rusim's track.city_polygon.v1 (CityPolygonTrack in
// uav-simulator/uavsimulator): a square grid of 2N+1 cells a side centred on the origin, where
// a cell in an odd row and an odd column is an intersection, a cell with one odd index a
// straight road and a cell with two even indexes a building block.
const (
	cityStream     = 0x63697479 // "city": the PCG stream of building sizes and colours
	citySidewalk   = 1.0        // m of pavement between a block's building and the road
	cityMinFloor   = 5.0        // m, lowest building
	cityMaxFloor   = 18.0       // m, highest building
	cityLightR     = 0.12       // m, traffic light pole
	cityLightH     = 3.0        // m
	cityLampR      = 0.1        // m, lamp post
	cityLampH      = 4.0        // m
	cityLineWidth  = 0.12       // m, the centre line of every road
	cityLineLift   = 0.002      // m, the lines lie on the road, not in it
	cityRoadColor  = "#3b3d40"
	cityLineColor  = "#e8e4d8"
	cityPoleColor  = "#2b2b2b"
	cityPavement   = "#9a9a96"
	cityFloorExtra = 1.0 // cells of pavement around the grid
)

// cityBuildingColors are the façades buildings are drawn in, picked from the seed.
var cityBuildingColors = []string{"#b7a58c", "#8d8f94", "#a65f4b", "#d2c7ae", "#6f7d8c", "#c9b48a", "#7a6a5c", "#9fb0a2"}

// cityGrid builds the city: city.intersections_per_side N (the grid has 2N+1 cells a side),
// city.cell_size_m, city.traffic_light_offset_m (how far from an intersection's centre, along
// both axes, its four traffic light poles stand) and city.seed, which draws each building's
// height and colour. Roads are flat strips a cell wide with a centre line; buildings are boxes
// inset by a pavement from their block; four lamp posts stand off the grid's corners. The
// spawn is the start of the city's route (cityRoute), facing along it.
func cityGrid(td *plugins.TrackDescriptor, p Params, _ int64) (*plugins.Layout, error) {
	r := p.Reader()
	n := r.Int("city.intersections_per_side", 3)
	c := r.Float("city.cell_size_m", 7.5)
	offset := r.Float("city.traffic_light_offset_m", 3.5)
	seed := r.Int("city.seed", 42)
	if err := r.Err(); err != nil {
		return nil, err
	}
	if limit := c/2 - cityLightR; offset > limit {
		return nil, &plugins.ParamError{Prefix: "world.params", Key: "city.traffic_light_offset_m",
			Problem: fmt.Sprintf("%s m puts the poles outside the intersection of a %s m cell; at most %s", num(offset), num(c), num(limit))}
	}
	cells := 2*n + 1
	half := float64(cells-1) / 2
	at := func(i int) float64 { return (float64(i) - half) * c }
	edge := (half + 0.5) * c
	var elements []plugins.Element
	for i := 1; i < cells; i += 2 {
		v := at(i)
		elements = append(elements,
			plugins.Element{Kind: plugins.ElementRoad, Name: fmt.Sprintf("road.ew.%d", i), Points: [][2]float64{{-edge, v}, {edge, v}}, Width: c, Color: cityRoadColor},
			plugins.Element{Kind: plugins.ElementRoad, Name: fmt.Sprintf("road.ns.%d", i), Points: [][2]float64{{v, -edge}, {v, edge}}, Width: c, Color: cityRoadColor})
	}
	for i := 1; i < cells; i += 2 {
		v := at(i)
		elements = append(elements,
			plugins.Element{Kind: plugins.ElementRoad, Name: fmt.Sprintf("line.ew.%d", i), Points: [][2]float64{{-edge, v}, {edge, v}},
				Z: cityLineLift, Width: cityLineWidth, Color: cityLineColor},
			plugins.Element{Kind: plugins.ElementRoad, Name: fmt.Sprintf("line.ns.%d", i), Points: [][2]float64{{v, -edge}, {v, edge}},
				Z: cityLineLift, Width: cityLineWidth, Color: cityLineColor})
	}
	rng := rand.New(rand.NewPCG(uint64(seed), cityStream))
	side := c - 2*citySidewalk
	for row := 0; row < cells; row++ {
		for col := 0; col < cells; col++ {
			x, y := at(col), at(row)
			switch {
			case row%2 == 0 && col%2 == 0 && side > 0:
				elements = append(elements, plugins.Element{Kind: plugins.ElementBox, Name: fmt.Sprintf("building.%d.%d", row, col),
					X: x, Y: y, Length: side, Width: side, Height: cityMinFloor + rng.Float64()*(cityMaxFloor-cityMinFloor),
					Color: cityBuildingColors[rng.IntN(len(cityBuildingColors))]})
			case row%2 == 1 && col%2 == 1:
				for k, d := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
					elements = append(elements, plugins.Element{Kind: plugins.ElementCylinder, Name: fmt.Sprintf("light.%d.%d.%d", row, col, k),
						X: x + d[0]*offset, Y: y + d[1]*offset, Radius: cityLightR, Height: cityLightH, Color: cityPoleColor})
				}
			}
		}
	}
	corner := half*c + 0.4*c
	for k, d := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
		elements = append(elements, plugins.Element{Kind: plugins.ElementCylinder, Name: fmt.Sprintf("lamp.%d", k),
			X: d[0] * corner, Y: d[1] * corner, Radius: cityLampR, Height: cityLampH, Color: cityPoleColor})
	}
	size := 2 * (edge + cityFloorExtra*c)
	route := cityRoute(n, c)
	return &plugins.Layout{
		Floor:    plugins.Floor{Length: size, Width: size, Texture: "tile", Color: cityPavement},
		Elements: withOwn(elements, td),
		SpawnPoints: []plugins.SpawnPoint{{Name: "start", X: route.Waypoints[0][0], Y: route.Waypoints[0][1],
			YawDeg: headingDeg(route.Waypoints[0], route.Waypoints[1])}},
		Route: route,
	}, nil
}

// cityRoute is the city's own route, city.default: with an odd N, up the centre road from the
// outermost southern road and round the eastern blocks; with an even N, round the outermost
// ring of roads; with one intersection, straight through it. It loops.
func cityRoute(n int, c float64) *plugins.Route {
	out := float64(n-1) * c // the outermost road's distance from the centre
	var wps [][2]float64
	switch {
	case n == 1:
		wps = [][2]float64{{0, -1.5 * c}, {0, 1.5 * c}}
	case n%2 == 1:
		wps = [][2]float64{{0, -out}, {0, out}, {out, out}, {out, -out}}
	default:
		wps = [][2]float64{{-out, -out}, {-out, out}, {out, out}, {out, -out}}
	}
	return &plugins.Route{Waypoints: wps, ReachDistance: 1.5, Loop: n > 1, Graph: "city.default"}
}
