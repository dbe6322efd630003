%% Erlang twin of startup_rollback.mr: children start one at a time in
%% order; init_ignore keeps a Permanent spec Stopped and removes a Temporary
%% one; a child that fails its start-up (init_fail, an exit before
%% acknowledging, returning before acknowledging) makes the supervisor stop
%% the children already started in reverse order and answer
%% StartFailed(name, reason).
-module(startup_rollback).
-export([main/0]).

-import(morrow_obs, [say/1, result/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Restart, Mode) -> sup_kit:spec(Id, #{restart => Restart, mode => Mode}).

flags() -> #{strategy => one_for_one, intensity => 5, period => 60}.

attempt(Third) ->
    morrow_obs:sup_start(flags(), [spec(a, permanent, serve), spec(b, transient, serve), Third,
                                   spec(d, permanent, serve)]).

observer() ->
    say("-- ignore"),
    Sup = sup_kit:start(flags(), [spec(a, permanent, serve), spec(i, permanent, ignore),
                                  spec(t, temporary, ignore), spec(d, permanent, serve)]),
    sup_kit:show(Sup),
    say(["stop ", result(morrow_obs:stop(Sup))]),
    say("-- init_fail"),
    say(["start ", result(attempt(spec(c, permanent, {fail, {failure, "boom"}})))]),
    say("-- exit before init_ack"),
    say(["start ", result(attempt(spec(c, temporary, {exit, {fault, 4}})))]),
    say("-- return before init_ack"),
    say(["start ", result(attempt(spec(c, transient, return)))]),
    say("-- the first child fails"),
    say(["start ", result(morrow_obs:sup_start(flags(), [spec(c, permanent, {fail, shutdown}), spec(d, permanent, serve)]))]).
