package lidar_test

import (
	"testing"

	"simgui/app/sensors/lidar"
)

func BenchmarkLidarScan(b *testing.B)      { lidar.BenchmarkScan(b) }
func BenchmarkPhysicsRaycast(b *testing.B) { lidar.BenchmarkPhysics(b) }
