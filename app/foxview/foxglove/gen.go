package foxglove

//go:generate sh ../../transport/msgs/generate.sh simgui/app/foxview/foxglove foxglove
