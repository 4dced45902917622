package redact_test

import (
	"fmt"

	"github.com/convsearch/convsearch/redact"
)

func ExampleRedactor_String() {
	r := redact.New()
	out, n := r.String("DATABASE_URL=postgres://app:Xk29vQp4Lm7w@db:5432/app\nDB_PASSWORD=${DB_PASSWORD}")
	fmt.Println(out)
	fmt.Println(n)
	// Output:
	// DATABASE_URL=postgres://app:[redacted: url-password]@db:5432/app
	// DB_PASSWORD=${DB_PASSWORD}
	// 1
}
