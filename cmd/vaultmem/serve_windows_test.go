package main

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/vaultmem/vaultmem/app"
	"golang.org/x/sys/windows"
)

// ownerOnly says why the named pipe at addr, which must be accepting, is
// not for its owner alone: its access list must hold one entry, which
// allows this user. It reads the list through a connection of its own.
func ownerOnly(addr string) error {
	c, err := app.Dial(context.Background(), addr)
	if err != nil {
		return err
	}
	defer c.Close()
	f, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return fmt.Errorf("pipe %s: a %T has no handle", addr, c)
	}
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_KERNEL_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("pipe %s: %w", addr, err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return fmt.Errorf("pipe %s: %w", addr, err)
	}
	user, err := userSID()
	if err != nil {
		return err
	}
	if dacl == nil || dacl.AceCount != 1 {
		return fmt.Errorf("pipe %s: access list %s, want one entry, for this user (%s)", addr, sd, user)
	}
	var ace *windows.ACCESS_ALLOWED_ACE
	if err := windows.GetAce(dacl, 0, &ace); err != nil {
		return fmt.Errorf("pipe %s: %w", addr, err)
	}
	if sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart)); ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || sid.String() != user {
		return fmt.Errorf("pipe %s: access list %s, want one entry, for this user (%s)", addr, sd, user)
	}
	return nil
}

// userSID is the SID of the user the test runs as.
func userSID() (string, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("the user's SID: %w", err)
	}
	return u.User.Sid.String(), nil
}
