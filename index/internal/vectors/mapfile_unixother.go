//go:build unix && !linux

package vectors

const mapPopulate = 0
