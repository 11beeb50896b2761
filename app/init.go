package app

import "github.com/vaultmem/vaultmem/internal/vaultinit"

// Making a vault, or completing one: see package vaultinit.
type (
	// InitResult is what Init did.
	InitResult = vaultinit.Result
)

var (
	// Init makes a folder a vaultmem vault, or completes one.
	Init = vaultinit.Init
)

// AdoptedBackup is where Init keeps MEMORY.md as Claude wrote it, under
// the state folder.
const AdoptedBackup = vaultinit.AdoptedBackup
