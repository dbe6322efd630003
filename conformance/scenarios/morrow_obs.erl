%% morrow_obs: the one place where Erlang/OTP observations are mapped onto
%% Morrow's vocabulary for the conformance suite (docs/conformance.md has
%% the same table in prose). Every Erlang scenario prints through this
%% module; no scenario spells a Morrow reason by hand.
%%
%% Deliberate differences between the Morrow process model and OTP that
%% are mapped here:
%%
%%   * Typed reasons. Morrow's Process.ExitReason is a closed sum; Erlang
%%     reasons are arbitrary terms. The Erlang scenarios encode the Morrow
%%     constructors as the terms in reason/1 below, and checked faults are
%%     the Erlang errors with the same cause (badarith for division by
%%     zero = Fault(1), badarg from hd/1 = Fault(4)).
%%   * NoProcess is OTP's noproc, including the {noproc, Stack} error that
%%     link/1 raises in a caller that does not trap exits (Morrow terminates
%%     that caller with NoProcess).
%%   * Killed/Kill are OTP's killed/kill (same rules: a direct kill is
%%     untrappable and reports killed; a kill that travels over a link or is
%%     a local exit reason is an ordinary reason).
%%   * Monitoring a dead process: Morrow queues Down(NoProcess)
%%     synchronously inside Process.monitor; OTP delivers the noproc DOWN as
%%     an asynchronous signal, and a demonitor issued before it arrives
%%     still finds the monitor active. monitor/1 below waits until the DOWN
%%     is in the message queue, which is the state Morrow is in on return.
%%   * DemonitorOptions(flush, info) is the option list [flush, info].
%%   * Monitoring oneself: OTP 25 agrees with Morrow (a fresh reference, no
%%     DOWN, demonitor with info returns false), so nothing is mapped.
%%   * A Morrow defer is try ... after. Morrow runs cleanup when an exit
%%     signal (other than a direct Kill) terminates a process; OTP runs no
%%     code in a process an exit signal terminates. Scenarios observe
%%     cleanup only where the models agree: Process.exit / exit/1, checked
%%     faults, and direct Kill (neither runs it).
%%   * Signal-only details: exit(self(), normal) has an OTP special case and
%%     is never used; a Morrow self-signal with Normal is not compared.
%%   * Finite quotas (256 lifecycle reservations per process, 4,096 per
%%     invocation, 4,096-byte reason text), WrongMonitorOwner and the
%%     first-committed-reason rule for faulting cleanup have no OTP
%%     counterpart and are not compared.
-module(morrow_obs).

-export([run/1, say/1, reason/1, bool/1, monitor/1, demonitor/3,
         options/2, await_queued/1]).

%% run(Observer) is the body of every scenario's main/0: it silences the
%% logger (crash reports of deliberately failing processes would otherwise
%% be printed on standard output), runs Observer in a fresh process (so it
%% starts with trap_exit off, like a Morrow process) and waits for it.
%% An observer that does not end normally halts the node with status 1.
run(Observer) when is_function(Observer, 0) ->
    ok = logger:set_primary_config(level, none),
    {Pid, Ref} = spawn_monitor(Observer),
    receive
        {'DOWN', Ref, process, Pid, normal} ->
            ok;
        {'DOWN', Ref, process, Pid, Other} ->
            io:format(standard_error, "observer ended with ~p~n", [Other]),
            erlang:halt(1)
    end.

%% say(Line) prints one observation line (an iolist) on standard output.
say(Line) ->
    io:format("~ts~n", [iolist_to_binary(Line)]).

%% reason(Term) renders an Erlang exit reason as the Morrow reason it
%% stands for, in the spelling the Morrow scenarios print:
%%
%%   Morrow                      Erlang term             printed
%%   Normal                      normal                  normal
%%   Shutdown                    shutdown                shutdown
%%   ShutdownDetail(t)           {shutdown, t}           shutdown_detail:t
%%   Fault(n) (explicit exit)    {fault, n}              fault:n
%%   Fault(1) (checked)          {badarith, Stack}       fault:1
%%   Fault(4) (checked)          {badarg, [{erlang,hd,_,_}|_]}  fault:4
%%   Failure(t)                  {failure, t}            failure:t
%%   Kill                        kill                    kill
%%   Killed                      killed                  killed
%%   NoProcess                   noproc                  no_process
%%   NoProcess (link, untrapped) {noproc, Stack}         no_process
%%
%% Anything else is printed as unmapped:<term>, which no Morrow scenario
%% prints, so the comparison fails loudly instead of guessing.
reason(normal) -> "normal";
reason(shutdown) -> "shutdown";
reason({shutdown, Text}) when is_list(Text) -> ["shutdown_detail:", Text];
reason({fault, Code}) when is_integer(Code) -> ["fault:", integer_to_list(Code)];
reason({badarith, Stack}) when is_list(Stack) -> "fault:1";
reason({badarg, [{erlang, hd, _, _} | _]}) -> "fault:4";
reason({failure, Text}) when is_list(Text) -> ["failure:", Text];
reason(kill) -> "kill";
reason(killed) -> "killed";
reason(noproc) -> "no_process";
reason({noproc, [{erlang, link, _, _} | _]}) -> "no_process";
reason(Other) -> ["unmapped:", io_lib:format("~0p", [Other])].

bool(true) -> "true";
bool(false) -> "false".

%% monitor(Pid) is Process.monitor: a fresh reference; when the target is
%% already dead, it returns only once the noproc DOWN is queued (see the
%% module comment).
monitor(Pid) ->
    Ref = erlang:monitor(process, Pid),
    case erlang:is_process_alive(Pid) of
        true -> ok;
        false -> await_queued(Ref)
    end,
    Ref.

%% await_queued(Ref) waits, without consuming anything, until a DOWN for
%% Ref is in the caller's message queue.
await_queued(Ref) ->
    {messages, Queue} = erlang:process_info(self(), messages),
    case [M || {'DOWN', R, _, _, _} = M <- Queue, R =:= Ref] of
        [_ | _] ->
            ok;
        [] ->
            erlang:yield(),
            await_queued(Ref)
    end.

%% demonitor(Ref, Flush, Info) is Process.demonitor(Ref,
%% Process.DemonitorOptions(Flush, Info)).
demonitor(Ref, Flush, Info) ->
    erlang:demonitor(Ref, options(Flush, Info)).

options(Flush, Info) ->
    [flush || Flush] ++ [info || Info].
