//! `volplan users add|list|remove`: the accounts of team mode. The password is the
//! first line of standard input, never an argument (which other users could see).

use crate::store::users::{self, SaveUserError, name_problem};
use crate::store::{Db, StoreError};
use crate::web::auth::Role;
use crate::web::auth::secret::{hash_password, password_problem};
use std::process::ExitCode;

/// The `volplan users` commands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum UsersCommand {
    /// Add a user, or change an existing user's password and/or role. The password is
    /// the first line of standard input (for an existing user an empty line keeps it);
    /// a changed password ends that user's sessions.
    Add(AddArgs),
    /// List the users with their roles.
    List(DbArgs),
    /// Remove a user with its sessions and API tokens.
    Remove(RemoveArgs),
}

/// The database option every `users` and `tokens` command takes.
#[derive(Debug, Clone, clap::Args)]
pub struct DbArgs {
    /// The database (as `volplan serve --database-url`).
    #[arg(long = "database-url", env = "DATABASE_URL", default_value = crate::web::config::DEFAULT_DATABASE_URL, value_name = "URL")]
    pub database_url: String,
}

/// Options of `volplan users add`.
#[derive(Debug, Clone, clap::Args)]
pub struct AddArgs {
    /// User name: 1 to 64 letters, digits, `.`, `_`, `-` or `@`.
    pub name: String,
    /// viewer (read and export), editor (also change), admin (also users, tokens, prices);
    /// a new user is an editor unless told otherwise, an existing one keeps its role.
    #[arg(long, value_parser = ["admin", "editor", "viewer"])]
    pub role: Option<String>,
    #[command(flatten)]
    pub db: DbArgs,
}

/// Options of `volplan users remove`.
#[derive(Debug, Clone, clap::Args)]
pub struct RemoveArgs {
    pub name: String,
    #[command(flatten)]
    pub db: DbArgs,
}

/// Runs a store command on the database of `url`: exit 0, 2 for a refusal (the message
/// from `Err(Ok(..))`), 1 for a database failure.
pub(crate) fn with_db<F>(url: &str, work: F) -> ExitCode
where
    F: AsyncFnOnce(&Db) -> Result<String, Result<String, StoreError>>,
{
    let Some(runtime) = super::runtime() else {
        return ExitCode::FAILURE;
    };
    let done = runtime.block_on(async {
        let db = crate::store::connect(url).await.map_err(Err)?;
        let done = work(&db).await;
        db.close().await;
        done
    });
    match done {
        Ok(out) => {
            if !out.is_empty() {
                println!("{out}");
            }
            ExitCode::SUCCESS
        }
        Err(Ok(refusal)) => {
            eprintln!("error: {refusal}");
            ExitCode::from(2)
        }
        Err(Err(e)) => {
            eprintln!("error: {url}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The first line of standard input, without its line ending.
fn password_line() -> Result<String, String> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the password from standard input: {e}"))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_owned())
}

/// Runs a `volplan users` command.
pub fn run(cmd: &UsersCommand) -> ExitCode {
    match cmd {
        UsersCommand::Add(args) => add(args),
        UsersCommand::List(db) => with_db(&db.database_url, async |db| {
            let list = users::list_users(db).await.map_err(Err)?;
            if list.is_empty() {
                eprintln!("no users: the server is in single-user mode");
            }
            Ok(list
                .iter()
                .map(|u| {
                    format!(
                        "{}\t{}\t{} token(s)\tcreated {}\tchanged {}",
                        u.name, u.role, u.tokens, u.created_at, u.updated_at
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"))
        }),
        UsersCommand::Remove(args) => {
            with_db(
                &args.db.database_url,
                async |db| match users::remove_user(db, &args.name).await {
                    Ok(()) => {
                        eprintln!("removed {} with its sessions and API tokens", args.name);
                        Ok(String::new())
                    }
                    Err(StoreError::NotFound) => {
                        Err(Ok(format!("there is no user `{}`", args.name)))
                    }
                    Err(e) => Err(Err(e)),
                },
            )
        }
    }
}

fn add(args: &AddArgs) -> ExitCode {
    if let Some(problem) = name_problem("the user name", &args.name) {
        eprintln!("error: {problem}");
        return ExitCode::from(2);
    }
    let role = args.role.as_deref().and_then(Role::parse);
    let hash = match password_line() {
        Ok(p) if p.is_empty() => None,
        Ok(p) => match password_problem(&p).map_or_else(|| hash_password(&p), Err) {
            Ok(h) => Some(h),
            Err(problem) => {
                eprintln!("error: {problem}");
                return ExitCode::from(2);
            }
        },
        Err(problem) => {
            eprintln!("error: {problem}");
            return ExitCode::from(2);
        }
    };
    if hash.is_none() && role.is_none() {
        eprintln!(
            "error: nothing to do: send the password as the first line of standard input \
             (e.g. `printf '%s\\n' \"$PASSWORD\" | volplan users add {} --role editor`), or pass --role to change only the role",
            args.name
        );
        return ExitCode::from(2);
    }
    with_db(&args.db.database_url, async |db| {
        let saved = users::save_user(db, &args.name, hash.as_deref(), role.map(Role::key))
            .await
            .map_err(|e| match e {
                SaveUserError::NeedsPassword => Ok(format!(
                    "`{}` is a new user and needs a password: send it as the first line of standard input",
                    args.name
                )),
                SaveUserError::Store(e) => Err(e),
            })?;
        let role = match role {
            Some(r) => r.key().to_owned(),
            None => users::find_user(db, &args.name)
                .await
                .map_err(Err)?
                .map_or_else(String::new, |u| u.role),
        };
        if saved.created {
            eprintln!("added {} as {role}", args.name);
        } else {
            let mut what = vec![format!("{} is {role}", args.name)];
            if hash.is_some() {
                what.push(format!(
                    "the password is changed, {} session(s) ended and {} API token(s) revoked",
                    saved.sessions_ended, saved.tokens_revoked
                ));
            }
            eprintln!("{}", what.join("; "));
        }
        Ok(String::new())
    })
}
