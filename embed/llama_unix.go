//go:build llama && !windows

package embed

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/ebitengine/purego"
)

// llamaLibName is the native library's file name, and llamaPathVar the
// variable the dynamic loader searches, on this system.
var llamaLibName, llamaPathVar = func() (string, string) {
	if runtime.GOOS == "darwin" {
		return "libllama_go.dylib", "DYLD_LIBRARY_PATH"
	}
	return "libllama_go.so", "LD_LIBRARY_PATH"
}()

// llamaDirs are the folders searched for the library, in order: those of
// llamaPathVar, the system's, the working directory (as kelindar/search
// searched them).
func llamaDirs() []string {
	dirs := filepath.SplitList(os.Getenv(llamaPathVar))
	if runtime.GOOS != "darwin" {
		dirs = append(dirs, "/lib")
	}
	dirs = append(dirs, "/usr/lib", "/usr/local/lib")
	if wd, err := os.Getwd(); err == nil {
		dirs = append(dirs, wd)
	}
	return dirs
}

// dlopen opens the library at path, resolving its symbols now.
func dlopen(path string) (uintptr, error) {
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
}

// dlsym is the address of the library's function name.
func dlsym(lib uintptr, name string) (uintptr, error) {
	return purego.Dlsym(lib, name)
}
