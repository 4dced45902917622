package indexer

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The data folder holds conversations (pasted secrets among them): only its
// owner may read it.
const (
	dirMode  fs.FileMode = 0o700
	fileMode fs.FileMode = 0o600
)

// MakePrivate creates data folder dir if needed and makes it, and what
// convsearch keeps in it, readable by its owner only, fixing what an older
// version, a restore or a umask left looser. Other files in the folder are
// not convsearch's and are left alone, as are symlinks.
func MakePrivate(dir string) error {
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return fmt.Errorf("create data folder %s: %w", dir, err)
	}
	return tighten(dir)
}

// tighten is MakePrivate on a folder that exists: a reader, which creates
// nothing, still makes the folder it reads private again.
func tighten(dir string) error {
	if err := private(dir, dirMode); err != nil {
		return err
	}
	names, err := filepath.Glob(filepath.Join(dir, "index.*"))
	if err != nil {
		return err
	}
	names = append(names, LockPath(dir), filepath.Join(dir, "daemon.json"))
	for _, name := range names {
		err := filepath.WalkDir(name, privateEntry)
		if err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

func privateEntry(path string, d fs.DirEntry, err error) error {
	if err != nil {
		return err
	}
	if d.Type()&fs.ModeSymlink != 0 {
		return nil
	}
	want := fileMode
	if d.IsDir() {
		want = dirMode
	}
	return private(path, want)
}

// private takes from path's mode whatever want does not allow.
func private(path string, want fs.FileMode) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if perm := info.Mode().Perm(); perm&^want != 0 {
		if err := os.Chmod(path, perm&want); err != nil {
			return fmt.Errorf("make %s private: %w", path, err)
		}
	}
	return nil
}
