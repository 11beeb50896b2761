//go:build llama

package embed

import (
	"os"
	"path/filepath"
	"syscall"
)

// llamaLibName is the native library's file name, and llamaPathVar the
// variable Windows searches for it.
const llamaLibName, llamaPathVar = "llama_go.dll", "PATH"

// llamaDirs are the folders searched for the library, in order: those of
// PATH, the system's, the working directory (as kelindar/search searched
// them).
func llamaDirs() []string {
	root := os.Getenv("SystemRoot")
	dirs := append(filepath.SplitList(os.Getenv("PATH")), filepath.Join(root, "System32"), filepath.Join(root, "SysWOW64"))
	if wd, err := os.Getwd(); err == nil {
		dirs = append(dirs, wd)
	}
	return dirs
}

// dlopen loads the library at path.
func dlopen(path string) (uintptr, error) {
	h, err := syscall.LoadLibrary(path)
	return uintptr(h), err
}

// dlsym is the address of the library's function name.
func dlsym(lib uintptr, name string) (uintptr, error) {
	return syscall.GetProcAddress(syscall.Handle(lib), name)
}
