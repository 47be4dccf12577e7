/**
 * A real WordPress for the publishing tests: Debian's `wordpress` package (installed by `npm test` when missing on
 * Debian as root) run privately on loopback: its own MariaDB data folder and socket, PHP's built-in server, a site
 * installed from the command line with pretty permalinks, an administrator, an author and a subscriber, each with an
 * Application Password. Everything lives in a scratch folder and one /etc/wordpress/config-<name>.php, removed by
 * `stop()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export type WordPressSite = {
  url: string
  admin: { username: string; appPassword: string }
  subscriber: { username: string; appPassword: string }
  /** An Author: may publish posts, but has no `unfiltered_html` (WordPress strips scripts from its posts). */
  author: { username: string; appPassword: string }
  stop(): Promise<void>
}

const WP_ROOT = '/usr/share/wordpress'
const MARIADBD = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((p) => fs.existsSync(p))

/** Why a real WordPress cannot run here, or null when it can. */
export function wordpressUnavailable(): string | null {
  if (!fs.existsSync(path.join(WP_ROOT, 'wp-load.php'))) return "Debian's wordpress package is not installed"
  if (!MARIADBD) return 'mariadbd (mariadb-server-core) is not installed'
  if (spawnSync('sh', ['-c', 'command -v php && command -v mariadb-install-db && command -v mariadb']).status !== 0)
    return 'php-cli or the MariaDB tools are not installed'
  try {
    fs.accessSync('/etc/wordpress', fs.constants.W_OK)
  } catch {
    return '/etc/wordpress is not writable (the tests run WordPress as root)'
  }
  return null
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`)
}

/**
 * Stops a child and waits for its exit. With `group` (a child spawned `detached`, so the leader of its own process
 * group) the signals go to the whole group: `php -S` with PHP_CLI_SERVER_WORKERS forks its workers, which a signal
 * to the parent alone leaves running (orphans that outlived the test run, holding the port).
 */
function stopChild(child: ChildProcess | undefined, { group = false } = {}) {
  const signal = (name: NodeJS.Signals) => {
    try {
      if (group && child?.pid) process.kill(-child.pid, name)
      else child?.kill(name)
    } catch {
      /* already gone */
    }
  }
  return new Promise<void>((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode) {
      if (group) signal('SIGKILL') // the group may outlive its leader
      return resolve()
    }
    const timer = setTimeout(() => signal('SIGKILL'), 5_000)
    child.once('exit', () => {
      clearTimeout(timer)
      if (group) signal('SIGKILL')
      resolve()
    })
    signal('SIGTERM')
  })
}

const INSTALL_PHP = `<?php
// Installs the site without wp-cli, then prints the Application Passwords as JSON. Inside a function, so that
// WordPress's globals cannot overwrite our variables.
function rankwell_install() {
  define('WP_INSTALLING', true);
  require_once '${WP_ROOT}/wp-load.php';
  require_once ABSPATH . 'wp-admin/includes/upgrade.php';
  require_once ABSPATH . 'wp-includes/class-wp-application-passwords.php';
  add_filter('pre_wp_mail', '__return_false');
  $home = getenv('RW_HOME');
  wp_install('Rankwell Test Blog', 'admin', 'admin@example.test', false, '', wp_slash('Admin-password-1'));
  update_option('siteurl', $home);
  update_option('home', $home);
  update_option('permalink_structure', '/%postname%/');
  delete_option('rewrite_rules');
  $reader = wp_insert_user(array('user_login' => 'reader', 'user_pass' => 'Reader-password-1', 'user_email' => 'reader@example.test', 'role' => 'subscriber'));
  $writer = wp_insert_user(array('user_login' => 'writer', 'user_pass' => 'Writer-password-1', 'user_email' => 'writer@example.test', 'role' => 'author'));
  $admin_pw = WP_Application_Passwords::create_new_application_password(1, array('name' => 'rankwell'));
  $reader_pw = WP_Application_Passwords::create_new_application_password($reader, array('name' => 'rankwell'));
  $writer_pw = WP_Application_Passwords::create_new_application_password($writer, array('name' => 'rankwell'));
  echo json_encode(array('admin' => $admin_pw[0], 'reader' => $reader_pw[0], 'writer' => $writer_pw[0]));
}
rankwell_install();
`

/** Starts a fresh WordPress. Throws with the reason when it cannot (call wordpressUnavailable() first). */
export async function startWordPress(): Promise<WordPressSite> {
  const unavailable = wordpressUnavailable()
  if (unavailable) throw new Error(unavailable)
  const name = `rankwell-${process.pid}-${Date.now().toString(36)}`
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rankwell-wordpress-'))
  const dataDir = path.join(dir, 'mysql')
  const socket = path.join(dir, 'mysql.sock')
  const contentDir = path.join(dir, 'wp-content')
  const configFile = `/etc/wordpress/config-${name}.php`
  fs.mkdirSync(path.join(contentDir, 'plugins'), { recursive: true })
  fs.mkdirSync(path.join(contentDir, 'uploads'), { recursive: true })
  let mariadb: ChildProcess | undefined
  let php: ChildProcess | undefined
  const stop = async () => {
    await stopChild(php, { group: true })
    await stopChild(mariadb)
    fs.rmSync(configFile, { force: true })
    fs.rmSync(dir, { recursive: true, force: true })
  }
  try {
    const init = spawnSync(
      'mariadb-install-db',
      [
        '--no-defaults',
        '--user=root',
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        `--datadir=${dataDir}`,
        // Its own temporary folder: two sites set up at once (the e2e walk's two projects) clashed in /tmp.
        `--tmpdir=${dir}`,
      ],
      { encoding: 'utf8' },
    )
    if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr || init.stdout}`)
    mariadb = spawn(
      MARIADBD!,
      [
        '--no-defaults',
        '--user=root',
        `--datadir=${dataDir}`,
        '--skip-networking',
        `--socket=${socket}`,
        `--tmpdir=${dir}`,
        `--pid-file=${path.join(dir, 'mysql.pid')}`,
        `--log-error=${path.join(dir, 'mysql.err')}`,
        '--innodb-buffer-pool-size=32M',
        '--skip-log-bin',
      ],
      { stdio: 'ignore' },
    )
    await waitFor(() => fs.existsSync(socket), 'MariaDB')
    await waitFor(
      () => spawnSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', 'select 1']).status === 0,
      'MariaDB',
    )
    const created = spawnSync(
      'mariadb',
      ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', 'create database wp'],
      {
        encoding: 'utf8',
      },
    )
    if (created.status !== 0) throw new Error(`creating the database failed: ${created.stderr}`)

    fs.writeFileSync(
      configFile,
      `<?php
define('DB_NAME', 'wp');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:${socket}');
define('WP_CONTENT_DIR', '${contentDir}');
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_ENVIRONMENT_TYPE', 'local');
$table_prefix = 'wp_';
`,
    )
    const router = path.join(dir, 'router.php')
    fs.writeFileSync(
      router,
      `<?php
$_SERVER['WORDPRESS_CONFIG'] = '${name}';
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
// Uploads live in the scratch content folder, outside the document root: served from there.
if (strpos($path, '/wp-content/uploads/') === 0 && strpos($path, '..') === false) {
  $file = '${contentDir}' . substr($path, strlen('/wp-content'));
  $types = array('jpg' => 'image/jpeg', 'jpeg' => 'image/jpeg', 'png' => 'image/png', 'webp' => 'image/webp', 'gif' => 'image/gif');
  $ext = strtolower(pathinfo($file, PATHINFO_EXTENSION));
  if (is_file($file) && isset($types[$ext])) {
    header('Content-Type: ' . $types[$ext]);
    header('Content-Length: ' . filesize($file));
    readfile($file);
    return true;
  }
}
if ($path !== '/' && is_file('${WP_ROOT}' . $path) && substr($path, -4) !== '.php') return false;
if ($path !== '/' && is_file('${WP_ROOT}' . $path)) { require '${WP_ROOT}' . $path; return true; }
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = '${WP_ROOT}/index.php';
require '${WP_ROOT}/index.php';
`,
    )
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const installer = path.join(dir, 'install.php')
    fs.writeFileSync(installer, INSTALL_PHP)
    // PHP's command line has no request: a prepended file gives the loader its host and config name.
    const prepend = path.join(dir, 'prepend.php')
    fs.writeFileSync(
      prepend,
      `<?php $_SERVER['WORDPRESS_CONFIG'] = '${name}'; $_SERVER['HTTP_HOST'] = '127.0.0.1:${port}'; $_SERVER['REQUEST_URI'] = '/';`,
    )
    const installed = spawnSync('php', ['-d', `auto_prepend_file=${prepend}`, installer], {
      encoding: 'utf8',
      env: { ...process.env, RW_HOME: url },
    })
    if (installed.status !== 0 || !installed.stdout.includes('"admin"'))
      throw new Error(`installing WordPress failed: ${installed.stderr || installed.stdout}`)
    const json = JSON.parse(installed.stdout.slice(installed.stdout.indexOf('{'))) as {
      admin: string
      reader: string
      writer: string
    }
    php = spawn('php', ['-d', 'opcache.enable_cli=1', '-S', `127.0.0.1:${port}`, '-t', WP_ROOT, router], {
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: 'ignore',
      detached: true, // its own process group, with its forked workers: stopped together (stopChild's `group`)
    })
    await waitFor(async () => {
      try {
        return (await fetch(`${url}/wp-json/`)).ok
      } catch {
        return false
      }
    }, 'WordPress')
    return {
      url,
      admin: { username: 'admin', appPassword: json.admin },
      subscriber: { username: 'reader', appPassword: json.reader },
      author: { username: 'writer', appPassword: json.writer },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
