package msgs

//go:generate sh ./generate.sh
