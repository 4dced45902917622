package redact

import (
	"math/rand/v2"
	"testing"
)

// TestNameValuePairs: a value whose key is "value" is judged by the name
// beside it: JSON name and value pairs (ECS task definitions, kubectl -o
// json, GitHub's API), the Kubernetes and compose env list, .NET's
// <add key="…" value="…"/>.
func TestNameValuePairs(t *testing.T) {
	pw := "Xk9mPq2zLw77"
	key := fake(310, alnum, 24)
	runCases(t, []redactCase{
		hit("password", `{"name":"DB_PASSWORD","value":"`, pw, `"}`),
		hit("password", `"environment": [{"name": "DB_PASSWORD", "value": "`, pw, `"}]`),
		hit("password", `{"Name":"DbPassword","Value":"`, pw, `"}`),
		hit("generic-secret", `{\"name\":\"API_TOKEN\",\"value\":\"`, key, `\"}`),
		hit("generic-secret", `{"name":"STRIPE_SECRET","value":"`, key, `","created_at":"2024-01-01"}`),
		hit("password", "env:\n- name: DB_PASSWORD\n  value: ", pw, "\n- name: DB_HOST\n  value: db"),
		hit("password", "        - name: DB_PASSWORD\n          value: \"", pw, "\""),
		hit("password", `<add key="DbPassword" value="`, pw, `" />`),
		hit("generic-secret", `<add key="ApiKey" value="`, key, `"/>`),
		hit("generic-secret", `<add name="ClientSecret" value="`, key, `"/>`),
		hit("password", `{"value": "`, pw, `", "name": "DB_PASSWORD"}`),
		hit("generic-secret", `{\"Value\":\"`, key, `\",\"Name\":\"API_TOKEN\"}`),
		miss("value before a name of no secret", `{"value": "Xk9mPq2zLw77Ab3dEf9hIj", "name": "DB_HOST"}`),
		miss("value before another object", `{"value": "Xk9mPq2zLw77Ab3dEf9hIj"}, {"name": "DB_PASSWORD"}`),
		miss("name of no secret", `{"name":"DB_HOST","value":"db-1.internal.example.com"}`),
		miss("a reference", "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}"),
		miss("a variable", `{"name":"DB_PASSWORD","value":"${DB_PASSWORD}"}`),
		miss("value alone", `{"value":"Xk9mPq2zLw77Ab3dEf9hIj"}`),
		miss("name two lines up", "- name: DB_PASSWORD\n\n  value: Xk9mPq2zLw77"),
		miss("a name of no key", `{"title":"DB_PASSWORD","value":"Xk9mPq2zLw77"}`),
		miss("XML add of no secret", `<add key="ConnectionTimeout" value="Xk9mPq2zLw77Ab3dEf9hIj"/>`),

		// a few keys apart in one object: AWS SSM parameters, tagged pairs
		hit("password", `{"Name": "/prod/db/password", "Type": "SecureString", "Value": "`, "Xy7kP2mQ9zLw", `"}`),
		hit("password", `{"Parameter": {"Name": "/prod/db/password", "Type": "SecureString", "Value": "`, "Xy7kP2mQ9zLw", `", "Version": 3}}`),
		hit("password", `{"Key": "DB_PASSWORD", "Type": "String", "Overwrite": true, "Value": "`, "Xy7kP2mQ9zLw", `"}`),
		hit("password", "{\n    \"Parameter\": {\n        \"Name\": \"/prod/db/password\",\n        \"Type\": \"SecureString\",\n        \"Value\": \"", "Xy7kP2mQ9zLw", "\",\n        \"Version\": 1\n    }\n}"),
		hit("generic-secret", `{"Name": "/myapp/prod/stripe_secret_key", "Type": "SecureString", "Value": "`, key, `"}`),
		hit("password", `{"Value": "`, "Xy7kP2mQ9zLw", `", "Type": "SecureString", "Name": "/prod/db/password"}`),
		hit("password", `{\"Name\": \"/prod/db/password\", \"Type\": \"SecureString\", \"Value\": \"`, "Xy7kP2mQ9zLw", `\"}`),
		miss("SSM parameter of no secret", `{"Name": "/prod/db/host", "Type": "String", "Value": "db-1.Xk9mPq2zLw77.internal"}`),
		miss("name in another object", `{"Name": "/prod/db/password", "Type": "SecureString"}, {"Name": "/prod/db/host", "Value": "Xk9mPq2zLw77Ab"}`),
		miss("name in a closed object", `{"Tags": [{"Key": "password_policy_ref"}], "Name": "app", "Value": "Xk9mPq2zLw77Ab"}`),
		miss("name after the object", `{"Value": "Xk9mPq2zLw77Ab", "Type": "String"}, {"Name": "/prod/db/password"}`),

		// brackets inside strings, CloudFormation's pairs, the AWS CLI
		hit("password", `{"Name": "/prod/db/password", "Description": "a } b", "Value": "`, "Xy7kP2mQ9zLw", `"}`),
		hit("password", `{"Name": "/prod/db/password", "Description": "see [1", "Value": "`, "Xy7kP2mQ9zLw", `"}`),
		hit("password", `{"Value": "`, "Xy7kP2mQ9zLw", `", "Description": "x { y", "Name": "/prod/db/password"}`),
		hit("password", `{"ParameterKey": "DBPassword", "ParameterValue": "`, "Xy7kP2mQ9zLw", `"}`),
		hit("password", `[{"ParameterKey": "DBPassword", "UsePreviousValue": false, "ParameterValue": "`, "Xy7kP2mQ9zLw", `"}]`),
		hit("password", "aws ssm put-parameter --name /prod/db/password --type SecureString --value ", "Xy7kP2mQ9zLw", " --overwrite"),
		hit("password", `aws ssm put-parameter --name "/prod/db/password" --value "`, "Xy7kP2mQ9zLw", `" --type SecureString`),
		hit("password", "aws ssm put-parameter --value ", "Xy7kP2mQ9zLw", " --name /prod/db/password --type SecureString"),
		miss("CloudFormation pair of no secret", `{"ParameterKey": "InstanceType", "ParameterValue": "t3.micro.Xk9mPq2zLw77"}`),
		miss("AWS CLI parameter of no secret", "aws ssm put-parameter --name /prod/db/host --value db-1.Xk9mPq2zLw77.internal"),
		miss("--value with a secret name on another line", "aws ssm get-parameter --name /prod/db/password\naws ssm put-parameter --name /prod/db/host --value db1Xk9mPq2zLw77"),
		// the --name of the same command: commands joined on one line, the
		// AWS docs' multi-line form, --value=
		hit("password", "aws ssm put-parameter --name /prod/db/host --value db1Hq8rTz3Lm55; aws ssm put-parameter --name /prod/db/password --value ", "Xk9mPq2zLw77", ""),
		hit("password", "aws ssm put-parameter --name /prod/db/host --value db1Hq8rTz3Lm55 && aws ssm put-parameter --name /prod/db/password --value ", "Xk9mPq2zLw77", ""),
		hit("password", "aws ssm put-parameter \\\n  --name /prod/db/password \\\n  --value ", "Xk9mPq2zLw77", " \\\n  --type SecureString"),
		hit("password", "aws ssm put-parameter \\\n  --value ", "Xk9mPq2zLw77", " \\\n  --name /prod/db/password"),
		hit("password", "aws ssm put-parameter --name /prod/db/password --value=", "Xk9mPq2zLw77", ""),
		hit("password", `"aws ssm put-parameter \\\n  --name /prod/db/password \\\n  --value `, "Xk9mPq2zLw77", ` \\\n  --type SecureString"`),
		miss("--value with a secret name in the command before", "aws ssm get-parameter --name /prod/db/password; aws ssm put-parameter --name /prod/db/host --value db1Xk9mPq2zLw77"),
		miss("--value with a secret name in the command after", "aws ssm put-parameter --value db1Xk9mPq2zLw77 --name /prod/db/host | aws ssm get-parameter --name /prod/db/password"),
		miss("--value with a secret name on another escaped line", `"aws ssm get-parameter --name /prod/db/password\naws ssm put-parameter --name /prod/db/host --value db1Xk9mPq2zLw77"`),
		hit("password", `{\"Name\": \"/prod/db/password\", \"Description\": \"a } b\", \"Value\": \"`, "Xy7kP2mQ9zLw", `\"}`),
		hit("password", `{'Parameter': {'Name': '/prod/db/password', 'Description': 'a } b', 'Value': '`, "Xy7kP2mQ9zLw", `'}}`),
		hit("password", `{'Value': '`, "Xy7kP2mQ9zLw", `', 'Description': 'x { y', 'Name': '/prod/db/password'}`),
		hit("password", "Parameter:\n  ARN: arn:aws:ssm:eu-west-1:123456789012:parameter/prod/db/password\n  Name: /prod/db/password\n  Type: SecureString\n  Value: ", "Xy7kP2mQ9zLw", "\n  Version: 3\n"),
		hit("password", "- Value: ", "Xy7kP2mQ9zLw", "\n  Type: SecureString\n  Name: /prod/db/password\n"),
		miss("YAML parameter of no secret", "Parameter:\n  Name: /prod/db/host\n  Type: String\n  Value: db-1.Xk9mPq2zLw77.internal\n"),
		miss("YAML name in another block", "- Name: /prod/db/password\n  Type: SecureString\n\n- Name: /prod/db/host\n  Value: db1Xk9mPq2zLw77\n"),
		miss("YAML name less indented", "Name: /prod/db/password\nParameter:\n  Value: db1Xk9mPq2zLw77\n"),
		miss("name in a string of another object", `{"Description": "{\"Name\": \"/prod/db/password\"}"}, {"Name": "/prod/db/host", "Value": "Xk9mPq2zLw77Ab"}`),
	})
}

// TestSpacedForms: secrets given without = or :.
func TestSpacedForms(t *testing.T) {
	pw := "Xk9mPq2zLw77"
	key := fake(311, alnum, 24)
	runCases(t, []redactCase{
		hit("password", "ENV DB_PASSWORD ", pw, ""),
		hit("password", "ENV DB_PASSWORD \"", pw, "\"\nRUN make"),
		hit("password", "ENV DB_PASSWORD=", pw, ""),
		hit("generic-secret", "ENV API_TOKEN ", key, ""),
		miss("ENV of no secret", "ENV NODE_ENV production2024X"),
		miss("ENV of a reference", "ENV DB_PASSWORD ${DB_PASSWORD}"),
		miss("ENV of a word", "ENV DB_PASSWORD changeme"),

		hit("password", "machine api.example.com login bob password ", pw, ""),
		hit("password", "machine github.com\n  login bob\n  password ", pw, "\n"),
		hit("password", "default login bob password ", pw, ""),
		hit("password", `machine h login bob password "`, pw, `"`),
		miss("netrc placeholder", `machine HOSTNAME login USERID password "PASSWORD"`),
		miss("netrc hole", `machine {full machine name} login {user-id} password "{password}"`),
		miss("anonymous ftp", "default login anonymous password user@site"),
		miss("machine in prose", "the machine password is stored in the vault"),

		hit("password", "<password>", pw, "</password>"),
		hit("password", "<Password> ", pw, " </Password>"),
		hit("password", "<db:password>", pw, "</db:password>"),
		hit("generic-secret", "<ApiKey>", key, "</ApiKey>"),
		hit("generic-secret", "<client_secret>", key, "</client_secret>"),
		miss("XML placeholder", "<password>${db.password}</password>"),
		miss("XML word", "<password>secret</password>"),
		miss("XML tags unlike", "<password>Xk9mPq2zLw77</passwordHint>"),
		miss("XML fingerprint", "<commons.releaseManagerKey>B6E73D84EA4FCC47166087253FAAD2CD5ECBB314</commons.releaseManagerKey>"),
		miss("XML key", "<key>"+key+"</key>"),
		miss("XML of no secret", "<version>1.2.3-beta4</version>"),
	})
}

// TestFlagForms: the short flags that give a password to a command.
func TestFlagForms(t *testing.T) {
	pw := "Xk9mPq2zLw8vNb"
	runCases(t, []redactCase{
		hit("password", "redis-cli -a ", pw, ""),
		hit("password", "redis-cli -h db -p 6379 -a ", pw, " ping"),
		hit("password", "/usr/bin/redis-cli -a '", pw, "' info"),
		hit("password", "docker login -p ", pw, " -u me"),
		hit("password", "docker login -u me -p", pw, " registry.io"),
		hit("password", "docker login registry.io -u me -p ", pw, ""),
		hit("password", "podman login -u me -p ", pw, " quay.io"),
		hit("password", "docker login --password ", pw, " -u me"),
		hit("password", "openssl enc -aes-256-cbc -k ", pw, " -in f"),
		hit("password", "openssl enc -d -pass pass:", pw, " -in f"),
		hit("password", "openssl pkcs12 -export -passout pass:", pw, " -out a.p12"),
		hit("password", "sshpass -p ", pw, " ssh host"),
		hit("password", "echo ", pw, " | docker login --password-stdin -u me"),
		hit("password", "echo '", pw, "' | docker login ghcr.io -u me --password-stdin"),
		hit("password", "cd x && printf '%s' \"", pw, "\" | podman login --password-stdin quay.io"),
		miss("password-stdin", "echo $PASS | docker login --password-stdin -u me"),
		miss("password-stdin from a file", "cat token.txt | docker login --password-stdin -u me"),
		miss("password-stdin of a variable", `echo "${{ secrets.GITHUB_TOKEN }}" | docker login ghcr.io -u $ --password-stdin`),
		miss("password-stdin redirect", "docker login --password-stdin < token.txt"),
		miss("docker run port", "docker run -p 8080:80 nginx"),
		miss("port after login", "docker login && docker run -p 8080:80x nginx"),
		miss("openssl env", "openssl pkcs12 -passin env:PASS -in f"),
		miss("openssl file", "openssl rsa -passin file:pass.txt -in k"),
		miss("curl -k", "curl -k -a Xk9mPq2zLw8vNb https://x"),
		miss("redis-cli prompts", "redis-cli -h db --askpass"),
		miss("mysql prompts", "mysql -u root -p mydb"),
	})
}

// TestProsePasswords: "my password is X" where X is shaped like a
// password, not a word.
func TestProsePasswords(t *testing.T) {
	runCases(t, []redactCase{
		hit("password", "my password is ", "Xk9mPq2zLw!", ""),
		hit("password", "The password is ", "Tr0ub4dor&3x", ". Rotate it."),
		hit("password", "the admin password was ", "Sphere#2024", ", now changed"),
		hit("password", `password "`, "Tr0ub4dor&3x", `"`),
		hit("password", "Password is `", "Xk9mPq2zLw77", "`"),
		miss("a word", "the password is incorrect"),
		miss("capitalised word", "the password is Required"),
		miss("letters and dots", "the password is stored.in.vault"),
		miss("short", "my password is abc123"),
		miss("digits", "my password is 12345678"),
		miss("an address", "my password is bob@example.com"),
		miss("a variable", "the password is ${DB_PASSWORD}"),
		miss("HTML text", `printf(&quot;Password is correct.&quot;);`),
		miss("a placeholder", "the password is your-password-123"),
		miss("code", "password is sha256(salt+pw)"),
		miss("bare word after password", "interactive password (file? command-line? env. variable?)"),
		miss("password and a list", "Disable password [lock]2 screen"),
		miss("password and a tag", "with password C<$pass1234>."),
	})
}

// TestCredentialURLs: Discord webhooks and presigned URL signatures.
func TestCredentialURLs(t *testing.T) {
	tok := fake(312, digits, 19) + "/" + fake(313, alnumUD, 68)
	sig := fake(314, lowerHx, 64)
	runCases(t, []redactCase{
		hit("discord-webhook-url", "https://discord.com/api/webhooks/", tok, ""),
		hit("discord-webhook-url", "https://discordapp.com/api/v10/webhooks/", tok, "?wait=true"),
		hit("presigned-url-signature", "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=", sig, ""),
		hit("presigned-url-signature", "x-amz-signature=", sig, ""),
		hit("http-cookie", "Cookie: ", "sessionid="+fake(320, lowerHx, 32)+"; csrftoken="+fake(321, alnum, 32), ""),
		hit("http-cookie", "curl -H 'Set-Cookie: ", "remember_token="+fake(322, alnum, 40)+"; Path=/; HttpOnly", "' https://x"),
		miss("cookie without a token", "Set-Cookie: theme=dark; Path=/; Max-Age=3600"),
		miss("cookie in prose", "A cookie: a small piece of data the browser keeps, such as session=abc."),
		hit("presigned-url-signature", "https://storage.googleapis.com/b/o?X-Goog-Signature=", fake(315, lowerHx, 512), "&x=1"),
		miss("discord docs", "https://discord.com/api/webhooks/{webhook.id}/{webhook.token}"),
		miss("short signature", "X-Amz-Signature=abc123"),
	})
}

// TestQualifiedKeys: a key whose name says it is no secret's (primary key,
// cache key), and a value that is a name, are kept.
func TestQualifiedKeys(t *testing.T) {
	key := fake(316, alnum, 24)
	runCases(t, []redactCase{
		miss("primary key", "primary key: CustomerOrderLineItem2024"),
		miss("cache key", "the cache key: user_id plus locale"),
		miss("cache key name", "the cache key: UserSessionCacheEntryV2"),
		miss("partition key", "partition key=tenant_id"),
		miss("partition key name", "The partition key=TenantIdRegion2024Q4"),
		miss("sort key", "sort key: created_at_2024"),
		miss("foreign key", "foreign key: order_line_item_id"),
		miss("idempotency key", "idempotency key: OrderCreateRequestV2"),
		miss("redis key", "Redis key: user:1234:profile:v2abc"),
		miss("token prose", "token: the next page cursor"),
		miss("token name", "token: NextPageCursorXyz12345"),
		miss("auth name", "auth: GoogleOAuth2ProviderConfigV3"),
		miss("key name", "key: ArrowDownRightCtrlShift1"),
		miss("key abstract", "key: AbstractFactoryProviderBean2"),
		miss("secret name", "secret: MyComponentSecretsPanel2"),
		miss("a path", `"key": "node_modules/.cache/babel-loader/4f8c2a"`),
		miss("snake name", "cache_key: shard_2024_11_events"),
		miss("gpg key", "ENV GPG_KEY A035C8C19219BA821ECEA86B64E628F8D684696D"),
		miss("gpg key assigned", "PGP_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D"),
		miss("git signing key", "[user]\n\tsigningkey = 3AA5C34371567BD2"),
		hit("password", "GPG_PASSPHRASE=", "Xk9mPq2zLw77", ""),
		hit("generic-secret", "GPG_PRIVATE_KEY=", key, ""),
		hit("generic-secret", "JWT_SIGNING_KEY=", key, ""),
		hit("generic-secret", "signingkey = ", key, ""),
		hit("generic-secret", "key: ", key, ""),
		hit("generic-secret", "api key: ", key, ""),
		hit("generic-secret", "secret key: ", key, ""),
		hit("generic-secret", "session token: ", key, ""),
		hit("generic-secret", "session secret: ", key, ""),
		hit("generic-secret", "storage key: ", key, ""),
		hit("generic-secret", "JSON key: ", key, ""),
		miss("page token", "the next page token: "+key),
		miss("cursor token", "cursor token: "+key),
		hit("generic-secret", "token: ", key, ""),
		hit("generic-secret", "SECRET_KEY=", "DjangoInsecureTesting2024", ""),
		hit("password", "primary password: ", "Xk9mPq2zLw77", ""),
		hit("aws-secret-access-key", "AWS_SECRET_ACCESS_KEY=", fake(317, b64, 40), ""),
	})
}

// TestNameLikeRandom: random keys are not taken for names. None of a
// million of 16 to 55 characters is; of 10 to 15 characters, 27 in a
// million were when this was written.
func TestNameLikeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 7))
	for i := 0; i < 1000000; i++ {
		n := 16 + r.IntN(40)
		b := make([]byte, n)
		for j := range b {
			b[j] = alnum[r.IntN(len(alnum))]
		}
		if nameLike(string(b), true) {
			t.Errorf("nameLike(%q) = true", b)
		}
	}
}

// TestDigitPasswords: a PIN or a password of digits only is redacted when
// a key names it a password or a PIN; a bare number, a dependency pin and
// the numbers of a password's settings are kept.
func TestDigitPasswords(t *testing.T) {
	runCases(t, []redactCase{
		hit("password", "password: ", "48213390", ""),
		hit("password", "DB_PASSWORD=", "48213390", "\n"),
		hit("password", "PIN: ", "4821", ""),
		hit("password", "SIM_PIN=", "4821", ""),
		hit("password", `{"pin_code": "`, "482193", `"}`),
		hit("password", "pin code ", "4821", ""),
		hit("password", "PIN code: ", "4821", "."),
		hit("password", "my PIN is ", "4821", ", don't share it"),
		hit("password", "the pin number is ", "48213", ""),
		hit("password", "passcode=", "123456", ""),
		hit("password", "Passcode: ", "482133", ""),
		hit("password", `{"user": "bob", "password": `, "1234567", `}`),
		hit("password", "PASSWORD=", "20240117", ""), // a date's shape, but a password's key
		miss("bare number", "call 48213390 or wait 4821 seconds"),
		miss("dependency pin", "pin the version to 1.2.3, it is pinned to 4.2"),
		miss("pin a version", "pin: 1.2.3 and pin: ^4.2.0 and pin = \"2.31.0\""),
		miss("pin prose", "pin 2024 as the baseline year and pin 8080 open"),
		miss("gpio pin", "LED_PIN=13 and pin: 4 and ledPin = 12"),
		miss("short password", "password: 1234 and pwd: 2024"),
		miss("password settings", "PASSWORD_HASH_ITERATIONS=600000 and password_min_length: 12 and PASSWORD_EXPIRY_DAYS=90000"),
		miss("pass count", "pass: 123456, fail: 3 and PASS=100000"),
		miss("pin issue", "PIN #4821 fixed the bug, see issue 4821"),
		miss("password version", "password: 1.2.3.4 and password: 2024-01-17"),
		miss("port", "pin: 8080/tcp and PIN_PORT=8080"),
		miss("repeated", "PIN: 0000 and password: 000000"),
		hit("password", "mot de passe: ", "48213390", ""),
		hit("password", "Mot de passe : ", "48213390", ""),
		hit("password", "MOT DE PASSE=", "48213390", ""),
		hit("password", `"mot de passe": "`, "48213390", `"`),
		hit("password", "mot_de_passe: ", "48213390", ""),
		hit("password", "motDePasse: ", "48213390", ""),
		miss("french short", "mot de passe: 2024 and passe: 48213390"),
		hit("password", "passcode=", "4821", ""),
		hit("password", "PASSCODE=", "4821", ""),
		hit("password", `"passcode": "`, "4821", `"`),
		hit("password", "passCode=", "482133", ""),
		hit("password", `"passCode": "`, "4821", `"`),
		hit("password", "PassCode: ", "4821", ""),
		hit("password", "pass_code=", "4821", ""),
		miss("a code of digits", "zip_code=48213"),
		miss("a bypass code", "bypassCode=4821"),
		hit("password", "Passcode ", "4821", ""),
		hit("password", "my passcode is ", "482133", ""),
		hit("password", "passcode is ", "4821", "."),
		miss("passcode short", "passcode=482 and passcode: 1.2.3"),
		miss("passcode prose", "the passcode 2024 rollout"),
		miss("part number", "PIN1234 connector and PIN12345"),
		miss("pin of a chip", "the PIN 2048 of the chip"),
		hit("password", "the PIN ", "4821", " of my card"),
		hit("password", "PIN ", "4821", " of your SIM, keep it safe"),
		hit("password", "PIN:", "4821", ""),
		hit("password", "PIN ", "4821", " and later"),
		hit("password", "PIN is ", "4821", " of course"),
	})
}

// TestForeignPasswordKeys: the word for password in other languages names
// a password key.
func TestForeignPasswordKeys(t *testing.T) {
	pw := "hunter2xyz"
	runCases(t, []redactCase{
		hit("password", "Passwort: ", pw, ""),
		hit("password", "passwort=", pw, ""),
		hit("password", "DB_PASSWORT=", pw, ""),
		hit("password", "Kennwort: ", pw, ""),
		hit("password", "mot de passe: ", pw, ""),
		hit("password", "Mot de passe : ", pw, ""),
		hit("password", "mot_de_passe=", pw, ""),
		hit("password", "contraseña: ", pw, ""),
		hit("password", "Contraseña=", pw, ""),
		hit("password", "contrasena: ", pw, ""),
		hit("password", "senha: ", pw, ""),
		hit("password", `{"senha": "`, pw, `"}`),
		hit("password", "hasło: ", pw, ""),
		hit("password", "haslo=", pw, ""),
		hit("password", "wachtwoord: ", pw, ""),
		hit("password", "lösenord: ", pw, ""),
		hit("password", "losenord=", pw, ""),
		hit("password", "пароль: ", pw, ""),
		hit("password", "Пароль: ", pw, ""),
		hit("password", "Passwort: ", "48213390", ""),
		miss("foreign words in prose", "Das Passwort ist falsch. Le mot de passe est requis. La contraseña: obligatoria."),
		miss("passe alone", "passe: Xk9mPq2zLw77 and passe-partout: Xk9mPq2zLw77"),
		miss("unicode word before a key", "café: Xk9mPq2zLw77 and naïve: Xk9mPq2zLw77"),
		miss("foreign placeholders", "Passwort: ${PASSWORT} and senha: <sua-senha> and пароль: ******"),
	})
}

// TestEncodedAssignments: a secret key and its value URL-encoded, in a
// query string, a form body or encoded JSON.
func TestEncodedAssignments(t *testing.T) {
	pw := "hunter2abc"
	runCases(t, []redactCase{
		hit("password", "password%3D", pw, ""),
		hit("password", "q=1&data=user%3Dbob%26password%3D", pw, "%26x%3D1"),
		hit("password", "q=1&data=user%3dbob%2cpassword%3d", pw, "%2cx%3d1"),
		hit("password", "%22password%22%3a%22", pw, "%22%7d"),
		hit("password", "password=", "hunter2%21abc", ""),
		hit("password", "user=bob&password=", "s3cr%40t!x", ""),
		hit("password", "POST /login\n\nuser=bob&password=", "s3cr%40t!x", "&remember=1"),
		hit("password", "%22password%22%3A%22", pw, "%22%7D"),
		hit("password", "body=%7B%22user%22%3A%22bob%22%2C%22password%22%3A%20%22", "Xk9%21mPq2zLw", "%22%7D"),
		hit("generic-secret", "api_key%3D", "Ab3dEf9hIjKl0mNoPq7", "%26"),
		miss("encoded placeholder", "%22password%22%3A%22%24%7BDB_PASSWORD%7D%22"),
		miss("encoded key of no secret", "redirect%3Dhttps%253A%252F%252Fx.com%26page%3D2"),
		miss("encoded word", "password%3Dchangeme%26user%3Dbob"),
		miss("encoded password reset", "next%3D%2Fpassword%2Freset%3Ftoken%3D"),
	})
}

// TestEncodedEchoes: the decoded form of a URL-encoded secret is replaced
// where it occurs again in the text.
func TestEncodedEchoes(t *testing.T) {
	r := New()
	for _, c := range []struct{ in, want string }{
		{"data=user%3Dbob%26password%3DXk9%21mPq2zLw then the password Xk9!mPq2zLw worked",
			"data=user%3Dbob%26password%3D[redacted: password] then the password [redacted: password] worked"},
		{`curl -d "user%3Dbob%26password%3DXk9%21mPq2zLw" then I logged in with Xk9!mPq2zLw ok`,
			`curl -d "user%3Dbob%26password%3D[redacted: password]" then I logged in with [redacted: password] ok`},
		{"%22token%22%3A%22Ab3dEf9h%2BIjKl0mNoPq7%22 and Ab3dEf9h+IjKl0mNoPq7",
			"%22token%22%3A%22[redacted: generic-secret]%22 and [redacted: generic-secret]"},
		// decoded as it was: an echo of the raw form only
		{"password%3DXk9mPq2zLw7 and Xk9mPq2zLw7 again", "password%3D[redacted: password] and [redacted: password] again"},
	} {
		if got, _ := r.String(c.in); got != c.want {
			t.Errorf("String(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestShellSpacedForms: shells and Windows set variables without =.
func TestShellSpacedForms(t *testing.T) {
	pw := "Xk9mPq2zLw77"
	runCases(t, []redactCase{
		hit("password", "set PASSWORD=", pw, ""),
		hit("password", `set "DB_PASSWORD=`, pw, `"`),
		hit("password", "setx PASSWORD ", pw, ""),
		hit("password", "setx DB_PASSWORD \"", pw, "\" /M"),
		hit("password", "$env:PASSWORD = \"", pw, "\""),
		hit("password", "$Env:DB_PASSWORD='", pw, "'"),
		hit("password", "export DB_PASSWORD ", pw, ""),
		hit("password", "set -x DB_PASSWORD ", pw, ""),
		hit("password", "set -gx DB_PASSWORD '", pw, "'"),
		hit("password", "setenv DB_PASSWORD ", pw, "\n"),
		hit("generic-secret", "set -Ux API_TOKEN ", fake(330, alnum, 24), ""),
		miss("set of no secret", "set -x PATH /usr/local/bin $PATH and setenv LANG en_US.UTF-8"),
		miss("set a variable", "setx PASSWORD %DB_PASSWORD% and set -x DB_PASSWORD $DB_PASS"),
		miss("set in prose", "set the password Xk9mPq2zLw77 later, and reset PASSWORD first"),
		miss("set of a word", "set -x DB_PASSWORD changeme"),
		miss("bash xtrace", "set -x\nexport DB_HOST db"),
		miss("js export", "export const token = makeToken(); export default TokenStore2024"),
		miss("set a field", "set PASSWORD_FIELD Xk9mPq2zLw77 and setx TOKEN_TYPE Bearer2024x"),
	})
}

// TestShellSpacedValues: a shell's value without = is taken whole: quoted
// (with a ; or a blank in it, or JSON-escaped quotes), bare with a quote
// inside, after a tab, after setx's /M.
func TestShellSpacedValues(t *testing.T) {
	runCases(t, []redactCase{
		hit("password", `setx DB_PASSWORD "`, "Xk9mPq2z;Lw77", `"`),
		hit("password", "set -x DB_PASSWORD ", "Xk9mPq2z'Lw77", ""),
		hit("password", `setx DB_PASSWORD "`, "Xk9 mPq2zLw77", `" /M`),
		hit("password", "export DB_PASSWORD '", "Xk9 mPq2zLw77", "'"),
		hit("password", `{"cmd":"setx DB_PASSWORD \"`, "Xk9mPq2zLw77", `\""}`),
		hit("password", `{"cmd":"setx DB_PASSWORD `, "Xk9mPq2zLw77", `"}`),
		hit("password", `{"cmd":"setx DB_PASSWORD `, "Xk9mPq2zLw77", `\n"}`),
		hit("password", "setx DB_PASSWORD\t", "Xk9mPq2zLw77", ""),
		hit("password", "setx /M DB_PASSWORD ", "Xk9mPq2zLw77", ""),
		hit("password", "export DB_PASSWORD ", "Xk9mPq2zLw77", "; echo ok"),
		hit("password", "echo 'export DB_PASSWORD ", "Xk9mPq2zLw77", "' >> ~/.profile"),
		hit("password", "SETX\tDB_PASSWORD ", "Xk9mPq2zLw77", ""),
		miss("quoted words", `setx DB_PASSWORD "my secret phrase"`),
		miss("SQL keys", "CREATE TABLE t (id INT, PRIMARY KEY (id), FOREIGN KEY (uid) REFERENCES users(id))"),
		miss("prose key", "the KEY Xk9mPq2zLw77Ab3dEf9hIj and the PASSWORD Xk9mPq2zLw77"),
		miss("reset", "reset PASSWORD Xk9mPq2zLw77 and offset TOKEN Xk9mPq2zLw77Ab3dEf9hIj"),
		miss("flag of no command", "run -x DB_PASSWORD Xk9mPq2zLw77"),
		miss("unclosed quote", `setx DB_PASSWORD "`),
	})
}
