from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'mail.html.j2'

def root(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    pass
    yield '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>'
    yield from context.blocks['title'][0](context)
    yield '</title>\n</head>\n<body style="font-family: Verdana, \'DejaVu Sans\', Arial, sans-serif; color: #1d1d1d; max-width: 44em;">\n'
    yield from context.blocks['greeting'][0](context)
    yield '\n'
    yield from context.blocks['intro'][0](context)
    yield '\n'
    yield from context.blocks['narrative'][0](context)
    yield '\n'
    yield from context.blocks['orders'][0](context)
    yield '\n'
    yield from context.blocks['score'][0](context)
    yield '\n'
    yield from context.blocks['next'][0](context)
    yield '\n'
    yield from context.blocks['attachments'][0](context)
    yield '\n'
    yield from context.blocks['howto'][0](context)
    yield '\n'
    yield from context.blocks['signature'][0](context)
    yield '\n</body>\n</html>\n'

def block_title(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_subject = resolve('subject')
    pass
    yield escape((undefined(name='subject') if l_0_subject is missing else l_0_subject))

def block_greeting(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_recipient = resolve('recipient')
    pass
    yield '<p>'
    if (environment.getattr((undefined(name='recipient') if l_0_recipient is missing else l_0_recipient), 'id') == 'ALL'):
        pass
        yield 'To every side of the game,'
    else:
        pass
        yield escape(environment.getattr((undefined(name='recipient') if l_0_recipient is missing else l_0_recipient), 'name'))
        yield ' player,'
    yield '</p>'

def block_intro(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_intro = resolve('intro')
    l_0_sender = resolve('sender')
    l_0_step = resolve('step')
    l_0_scenario = resolve('scenario')
    l_0_game_id = resolve('game_id')
    l_0_game_turn = resolve('game_turn')
    pass
    yield '\n'
    if (undefined(name='intro') if l_0_intro is missing else l_0_intro):
        pass
        yield '<p>'
        yield escape((undefined(name='intro') if l_0_intro is missing else l_0_intro))
        yield '</p>'
    else:
        pass
        yield '\n<p>'
        yield escape(environment.getattr((undefined(name='sender') if l_0_sender is missing else l_0_sender), 'name'))
        yield ' has played step '
        yield escape((undefined(name='step') if l_0_step is missing else l_0_step))
        yield ' of <strong>'
        yield escape(environment.getattr((undefined(name='scenario') if l_0_scenario is missing else l_0_scenario), 'title'))
        yield '</strong>\n(game <code>'
        yield escape((undefined(name='game_id') if l_0_game_id is missing else l_0_game_id))
        yield '</code>).'
        if (undefined(name='game_turn') if l_0_game_turn is missing else l_0_game_turn):
            pass
            yield ' Game-Turn '
            yield escape((undefined(name='game_turn') if l_0_game_turn is missing else l_0_game_turn))
            yield ' of '
            yield escape(environment.getattr((undefined(name='scenario') if l_0_scenario is missing else l_0_scenario), 'last_turn'))
            yield '.'
        yield '</p>\n'
    yield '\n'

def block_narrative(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_narrative = resolve('narrative')
    pass
    yield '\n'
    if (undefined(name='narrative') if l_0_narrative is missing else l_0_narrative):
        pass
        yield '\n<h3 style="margin-bottom: 0.3em;">What happened</h3>\n<ul>\n'
        for l_1_line in (undefined(name='narrative') if l_0_narrative is missing else l_0_narrative):
            _loop_vars = {}
            pass
            yield '  <li>'
            yield escape(l_1_line)
            yield '</li>\n'
        l_1_line = missing
        yield '</ul>\n'
    else:
        pass
        yield '\n<p>Before these orders, nothing happened on the map.</p>\n'
    yield '\n'

def block_orders(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_orders = resolve('orders')
    l_0_sender = resolve('sender')
    pass
    if (undefined(name='orders') if l_0_orders is missing else l_0_orders):
        pass
        yield '\n<h3 style="margin-bottom: 0.3em;">'
        yield escape(environment.getattr((undefined(name='sender') if l_0_sender is missing else l_0_sender), 'possessive'))
        yield ' orders</h3>\n<ul>\n'
        for l_1_line in (undefined(name='orders') if l_0_orders is missing else l_0_orders):
            _loop_vars = {}
            pass
            yield '  <li>'
            yield escape(l_1_line)
            yield '</li>\n'
        l_1_line = missing
        yield '</ul>\n'

def block_score(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_score = resolve('score')
    pass
    if (undefined(name='score') if l_0_score is missing else l_0_score):
        pass
        yield '\n<p><strong>Victory points:</strong> '
        l_1_loop = missing
        for (l_1_name, l_1_points), l_1_loop in LoopContext((undefined(name='score') if l_0_score is missing else l_0_score), undefined):
            _loop_vars = {}
            pass
            yield escape(l_1_name)
            yield ' '
            yield escape(l_1_points)
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' &middot; '
        l_1_loop = l_1_name = l_1_points = missing
        yield '</p>\n'

def block_next(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_next_action = resolve('next_action')
    pass
    yield '\n<p style="font-size: 1.1em;"><strong>Next:</strong> '
    yield escape((undefined(name='next_action') if l_0_next_action is missing else l_0_next_action))
    yield '</p>\n'

def block_attachments(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_attachments = resolve('attachments')
    pass
    yield '\n<p>Attached:</p>\n<ul>\n'
    for l_1_a in (undefined(name='attachments') if l_0_attachments is missing else l_0_attachments):
        _loop_vars = {}
        pass
        yield '  <li><code>'
        yield escape(environment.getattr(l_1_a, 'name'))
        yield '</code> ('
        yield escape(environment.getattr(l_1_a, 'kind'))
        yield ', '
        yield escape(environment.getattr(l_1_a, 'size'))
        yield ' bytes)</li>\n'
    l_1_a = missing
    yield '</ul>\n'

def block_howto(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    l_0_howto = resolve('howto')
    pass
    yield '\n'
    if (undefined(name='howto') if l_0_howto is missing else l_0_howto):
        pass
        yield '<p>'
        yield escape((undefined(name='howto') if l_0_howto is missing else l_0_howto))
        yield '</p>\n'
    else:
        pass
        yield '<p>To take this turn, save this email (or its attachments) and run\n<code>pbem ingest GAME_DIR this-email.eml</code>; check the whole game with\n<code>pbem verify GAME_DIR</code>.</p>\n'

def block_signature(context, missing=missing, environment=environment):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    _block_vars = {}
    pass
    yield '<p style="color: #777; font-size: 0.85em;">sent with pbem: signed moves, dice nobody can fix</p>'

blocks = {'title': block_title, 'greeting': block_greeting, 'intro': block_intro, 'narrative': block_narrative, 'orders': block_orders, 'score': block_score, 'next': block_next, 'attachments': block_attachments, 'howto': block_howto, 'signature': block_signature}
debug_info = '7=12&10=14&11=16&17=18&27=20&33=22&36=24&39=26&45=28&51=30&7=33&10=44&11=63&12=78&13=86&14=92&17=104&18=114&21=117&27=130&28=143&30=145&33=154&34=167&36=179&37=189&39=192&42=202&45=215&46=225&51=234'

# ruff: noqa
# mypy: ignore-errors
# Generated by python -m pbem.templates.precompile from the packaged template mail.html.j2 (Jinja2 3.1.6, source sha1 9d8331c2ffc3e2fa54bd442a4199074d0ffa243a): do not edit.
