//! `volplan tokens create|list|revoke`: API tokens for scripts. A token acts as its user
//! with that user's role; it is printed once and only its SHA-256 is stored.

use super::users::{DbArgs, with_db};
use crate::store::StoreError;
use crate::store::tokens::{self, Created};
use crate::store::users::name_problem;
use crate::web::auth::secret::{digest, new_api_token};
use std::process::ExitCode;

/// The `volplan tokens` commands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum TokensCommand {
    /// Create token NAME for USER and print it (once: it cannot be shown again).
    Create(CreateArgs),
    /// List the tokens (names, users, roles; never the secrets).
    List(DbArgs),
    /// Revoke token NAME: requests with it get 401 from now on.
    Revoke(RevokeArgs),
}

/// Options of `volplan tokens create`.
#[derive(Debug, Clone, clap::Args)]
pub struct CreateArgs {
    /// A name for the token (what it is for, e.g. `ci-reports`).
    pub name: String,
    /// The user the token acts as.
    #[arg(long, value_name = "USER")]
    pub user: String,
    #[command(flatten)]
    pub db: DbArgs,
}

/// Options of `volplan tokens revoke`.
#[derive(Debug, Clone, clap::Args)]
pub struct RevokeArgs {
    pub name: String,
    #[command(flatten)]
    pub db: DbArgs,
}

/// Runs a `volplan tokens` command.
pub fn run(cmd: &TokensCommand) -> ExitCode {
    match cmd {
        TokensCommand::Create(args) => {
            if let Some(problem) = name_problem("the token name", &args.name) {
                eprintln!("error: {problem}");
                return ExitCode::from(2);
            }
            let token = match new_api_token() {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            with_db(
                &args.db.database_url,
                async |db| match tokens::create_token(db, &args.name, &args.user, &digest(&token))
                    .await
                    .map_err(Err)?
                {
                    Created::Created => {
                        eprintln!(
                            "created token {} for {}; it is shown only now: \
                             send it as `Authorization: Bearer TOKEN`",
                            args.name, args.user
                        );
                        Ok(token.clone())
                    }
                    Created::NameTaken => Err(Ok(format!(
                        "there is already a token `{}`; revoke it first or pick another name",
                        args.name
                    ))),
                    Created::NoUser => Err(Ok(format!(
                        "there is no user `{}`; add it with `volplan users add`",
                        args.user
                    ))),
                },
            )
        }
        TokensCommand::List(db) => with_db(&db.database_url, async |db| {
            let list = tokens::list_tokens(db).await.map_err(Err)?;
            Ok(list
                .iter()
                .map(|t| {
                    format!(
                        "{}\t{}\t{}\tcreated {}",
                        t.name, t.user, t.role, t.created_at
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"))
        }),
        TokensCommand::Revoke(args) => {
            with_db(
                &args.db.database_url,
                async |db| match tokens::revoke_token(db, &args.name).await {
                    Ok(()) => {
                        eprintln!("revoked token {}", args.name);
                        Ok(String::new())
                    }
                    Err(StoreError::NotFound) => {
                        Err(Ok(format!("there is no token `{}`", args.name)))
                    }
                    Err(e) => Err(Err(e)),
                },
            )
        }
    }
}
