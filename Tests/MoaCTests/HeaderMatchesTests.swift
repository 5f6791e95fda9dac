// Moa — checks that Include/moa.h (imported as CMoa) declares exactly what Sources/Moa exports.
//
// `same(CMoa.f, Moa.f)` only compiles when the two function types are identical, so a signature mismatch
// between the hand-written header and a @_cdecl thunk is a build error of this test target. Two parameters
// cannot be compared directly, because the Moa module cannot name the C types: `const moa_term *` (a raw
// pointer in Swift) and `moa_relation` (UInt32 raw value); they get an adapter closure plus layout checks.
//
// Note: editing only the header does not trigger a rebuild of this target; build clean after changing moa.h.

import CMoa
import Moa
import MoaLayout
import MoaSolver
import Testing
import XCTest

/// Compiles only when both arguments have the same type.
func same<T>(_: T, _: T) {}

/// Every function in moa.h against its thunk. Not called: compiling it is the check.
func signaturesMatch() {
    same(CMoa.moa_libversion, Moa.moa_libversion)
    same(CMoa.moa_libversion_number, Moa.moa_libversion_number)
    same(CMoa.moa_errstr, Moa.moa_errstr)
    same(CMoa.moa_status_name, Moa.moa_status_name)
    same(CMoa.moa_priority_value, Moa.moa_priority_value)
    same(CMoa.moa_priority_name, Moa.moa_priority_name)
    same(CMoa.moa_solver_errmsg, Moa.moa_solver_errmsg)
    same(CMoa.moa_solver_conflicts, Moa.moa_solver_conflicts)
    same(CMoa.moa_solver_new, Moa.moa_solver_new)
    same(CMoa.moa_solver_free, Moa.moa_solver_free)
    same(CMoa.moa_solver_reset, Moa.moa_solver_reset)
    same(CMoa.moa_var_new, Moa.moa_var_new)
    same(CMoa.moa_var_free, Moa.moa_var_free)
    same(CMoa.moa_var_name, Moa.moa_var_name)
    same(CMoa.moa_var_set_name, Moa.moa_var_set_name)
    same(CMoa.moa_var_value, Moa.moa_var_value)
    same(CMoa.moa_solver_values, Moa.moa_solver_values)
    same(CMoa.moa_solver_add) { s, terms, nterms, constant, rel, priority, tag, out in
        // The only adapted parameters: the term pointer (same address) and the relation's raw value.
        let raw: UInt32 = rel.rawValue
        return Moa.moa_solver_add(s, UnsafeRawPointer(terms), nterms, constant, raw, priority, tag, out)
    }
    same(CMoa.moa_cons_remove, Moa.moa_cons_remove)
    same(CMoa.moa_cons_set_active, Moa.moa_cons_set_active)
    same(CMoa.moa_cons_is_active, Moa.moa_cons_is_active)
    same(CMoa.moa_cons_constant, Moa.moa_cons_constant)
    same(CMoa.moa_cons_set_constant, Moa.moa_cons_set_constant)
    same(CMoa.moa_cons_priority, Moa.moa_cons_priority)
    same(CMoa.moa_cons_set_priority, Moa.moa_cons_set_priority)
    same(CMoa.moa_cons_weight, Moa.moa_cons_weight)
    same(CMoa.moa_cons_set_weight, Moa.moa_cons_set_weight)
    same(CMoa.moa_cons_tag, Moa.moa_cons_tag)
    same(CMoa.moa_cons_describe, Moa.moa_cons_describe)
    same(CMoa.moa_solver_add_edit, Moa.moa_solver_add_edit)
    same(CMoa.moa_solver_remove_edit, Moa.moa_solver_remove_edit)
    same(CMoa.moa_solver_has_edit, Moa.moa_solver_has_edit)
    same(CMoa.moa_solver_suggest, Moa.moa_solver_suggest)
    same(CMoa.moa_solver_update, Moa.moa_solver_update)
    same(CMoa.moa_solver_counts, Moa.moa_solver_counts)
    same(CMoa.moa_solver_dump, Moa.moa_solver_dump)

    // The layout level. Adapted parameters: C enums (their raw values) and struct pointers (the same address as
    // a raw pointer; layouts checked in testLayoutStructs).
    same(CMoa.moa_layout_new, Moa.moa_layout_new)
    same(CMoa.moa_layout_free, Moa.moa_layout_free)
    same(CMoa.moa_layout_errmsg, Moa.moa_layout_errmsg)
    same(CMoa.moa_layout_error_info) { L, out in Moa.moa_layout_error_info(L, UnsafeMutableRawPointer(out)) }
    same(CMoa.moa_layout_conflicts, Moa.moa_layout_conflicts)
    same(CMoa.moa_layout_set_root_size, Moa.moa_layout_set_root_size)
    same(CMoa.moa_layout_root_size, Moa.moa_layout_root_size)
    same(CMoa.moa_layout_orientation, Moa.moa_layout_orientation)
    same(CMoa.moa_layout_root, Moa.moa_layout_root)
    same(CMoa.moa_layout_guide, Moa.moa_layout_guide)
    same(CMoa.moa_layout_set_safe_area, Moa.moa_layout_set_safe_area)
    same(CMoa.moa_layout_set_keyboard_height, Moa.moa_layout_set_keyboard_height)
    same(CMoa.moa_view_new, Moa.moa_view_new)
    same(CMoa.moa_view_free, Moa.moa_view_free)
    same(CMoa.moa_view_find, Moa.moa_view_find)
    same(CMoa.moa_view_name, Moa.moa_view_name)
    same(CMoa.moa_view_superview, Moa.moa_view_superview)
    same(CMoa.moa_view_set_superview, Moa.moa_view_set_superview)
    same(CMoa.moa_view_set_margins, Moa.moa_view_set_margins)
    same(CMoa.moa_view_set_directional_margins, Moa.moa_view_set_directional_margins)
    same(CMoa.moa_view_set_direction) { L, v, dir in
        let raw: UInt32 = dir.rawValue
        return Moa.moa_view_set_direction(L, v, raw)
    }
    same(CMoa.moa_view_set_intrinsic_size, Moa.moa_view_set_intrinsic_size)
    same(CMoa.moa_view_set_content_priority) { L, v, axis, hugging, compression in
        let raw: UInt32 = axis.rawValue
        return Moa.moa_view_set_content_priority(L, v, raw, hugging, compression)
    }
    same(CMoa.moa_view_set_baseline, Moa.moa_view_set_baseline)
    same(CMoa.moa_view_frame) { L, v, out in Moa.moa_view_frame(L, v, UnsafeMutableRawPointer(out)) }
    same(CMoa.moa_view_frame_in_root) { L, v, out in Moa.moa_view_frame_in_root(L, v, UnsafeMutableRawPointer(out)) }
    same(CMoa.moa_layout_eq, Moa.moa_layout_eq)
    same(CMoa.moa_layout_eqs, Moa.moa_layout_eqs)
    same(CMoa.moa_layout_eqs_source, Moa.moa_layout_eqs_source)
    same(CMoa.moa_layout_xeq, Moa.moa_layout_xeq)
    same(CMoa.moa_layout_constraints, Moa.moa_layout_constraints)
    same(CMoa.moa_layout_describe, Moa.moa_layout_describe)
    same(CMoa.moa_layout_set_debug_callback, Moa.moa_layout_set_debug_callback)
    same(CMoa.moa_lcons_constant, Moa.moa_lcons_constant)
    same(CMoa.moa_lcons_set_constant, Moa.moa_lcons_set_constant)
    same(CMoa.moa_lcons_priority, Moa.moa_lcons_priority)
    same(CMoa.moa_lcons_set_priority, Moa.moa_lcons_set_priority)
    same(CMoa.moa_lcons_active, Moa.moa_lcons_active)
    same(CMoa.moa_lcons_set_active, Moa.moa_lcons_set_active)
    same(CMoa.moa_lcons_describe, Moa.moa_lcons_describe)
    same(CMoa.moa_lcons_line, Moa.moa_lcons_line)
    same(CMoa.moa_lcons_remove, Moa.moa_lcons_remove)
    same(CMoa.moa_layout_solve, Moa.moa_layout_solve)
    same(CMoa.moa_layout_changed_views, Moa.moa_layout_changed_views)
    same(CMoa.moa_layout_views, Moa.moa_layout_views)
    same(CMoa.moa_layout_frames) { L, guides, out, cap, count in
        Moa.moa_layout_frames(L, guides, UnsafeMutableRawPointer(out), cap, count)
    }
    same(CMoa.moa_layout_violations, Moa.moa_layout_violations)
    same(CMoa.moa_layout_ambiguities, Moa.moa_layout_ambiguities)
    same(CMoa.moa_layout_svg, Moa.moa_layout_svg)
    same(CMoa.moa_view_set_measure) { L, v, fn, ud in
        Moa.moa_view_set_measure(L, v, unsafeBitCast(fn, to: MeasureFn?.self), ud)
    }
    same(CMoa.moa_view_invalidate, Moa.moa_view_invalidate)
    same(CMoa.moa_measure_error, Moa.moa_measure_error)
    same(CMoa.moa_layout_measure_stats) { L, out in Moa.moa_layout_measure_stats(L, UnsafeMutableRawPointer(out)) }
    same(CMoa.moa_view_set_text) { L, v, text, style in Moa.moa_view_set_text(L, v, text, UnsafeRawPointer(style)) }
    same(CMoa.moa_view_text_lines) { L, v, out, metrics in
        Moa.moa_view_text_lines(L, v, out, UnsafeMutableRawPointer(metrics))
    }
    same(CMoa.moa_layout_set_font) { L, family, fn, ud, ascent, descent in
        Moa.moa_layout_set_font(L, family, unsafeBitCast(fn, to: AdvanceFn?.self), ud, ascent, descent)
    }
    same(CMoa.moa_layout_fitting_size, Moa.moa_layout_fitting_size)
    same(CMoa.moa_layout_advance, Moa.moa_layout_advance)
    same(CMoa.moa_layout_seek, Moa.moa_layout_seek)
    same(CMoa.moa_layout_time, Moa.moa_layout_time)
    same(CMoa.moa_layout_is_animating, Moa.moa_layout_is_animating)
    same(CMoa.moa_layout_spring_curve, Moa.moa_layout_spring_curve)
    same(CMoa.moa_layout_bezier_curve, Moa.moa_layout_bezier_curve)
    same(CMoa.moa_curve_name, Moa.moa_curve_name)
    same(CMoa.moa_lcons_animate, Moa.moa_lcons_animate)
    same(CMoa.moa_lcons_animate_priority, Moa.moa_lcons_animate_priority)
    same(CMoa.moa_layout_animate_root_size, Moa.moa_layout_animate_root_size)
    same(CMoa.moa_animation_cancel, Moa.moa_animation_cancel)
    same(CMoa.moa_lcons_stop_animating, Moa.moa_lcons_stop_animating)
    same(CMoa.moa_layout_cancel_animations, Moa.moa_layout_cancel_animations)
    same(CMoa.moa_guide_new, Moa.moa_guide_new)
    same(CMoa.moa_stack_new) { L, name, parent, axis, out in Moa.moa_stack_new(L, name, parent, axis.rawValue, out) }
    same(CMoa.moa_stack_insert, Moa.moa_stack_insert)
    same(CMoa.moa_stack_remove, Moa.moa_stack_remove)
    same(CMoa.moa_stack_views, Moa.moa_stack_views)
    same(CMoa.moa_stack_set_axis) { L, s, a in Moa.moa_stack_set_axis(L, s, a.rawValue) }
    same(CMoa.moa_stack_set_distribution) { L, s, d in Moa.moa_stack_set_distribution(L, s, d.rawValue) }
    same(CMoa.moa_stack_set_alignment) { L, s, a in Moa.moa_stack_set_alignment(L, s, a.rawValue) }
    same(CMoa.moa_stack_set_spacing, Moa.moa_stack_set_spacing)
    same(CMoa.moa_stack_set_margins_relative, Moa.moa_stack_set_margins_relative)
    same(CMoa.moa_stack_set_custom_spacing, Moa.moa_stack_set_custom_spacing)
    same(CMoa.moa_stack_get, Moa.moa_stack_get)
    same(CMoa.moa_stack_set_hidden, Moa.moa_stack_set_hidden)
    same(CMoa.moa_stack_is_hidden, Moa.moa_stack_is_hidden)
    same(CMoa.moa_chain_new) { L, vs, n, axis, style, gap, bias, w, out in
        Moa.moa_chain_new(L, vs, n, axis.rawValue, style.rawValue, gap, bias, w, out)
    }
    same(CMoa.moa_chain_free, Moa.moa_chain_free)
    same(CMoa.moa_chain_set_style) { L, c, style in Moa.moa_chain_set_style(L, c, style.rawValue) }
    same(CMoa.moa_chain_set_bias, Moa.moa_chain_set_bias)
    same(CMoa.moa_chain_set_gap, Moa.moa_chain_set_gap)
    same(CMoa.moa_chain_set_weight, Moa.moa_chain_set_weight)
    same(CMoa.moa_barrier_new) { L, name, parent, side, vs, n, margin, out in
        Moa.moa_barrier_new(L, name, parent, side.rawValue, vs, n, margin, out)
    }
    same(CMoa.moa_barrier_set_views, Moa.moa_barrier_set_views)
    same(CMoa.moa_barrier_set_margin, Moa.moa_barrier_set_margin)
    same(CMoa.moa_layout_vfl, Moa.moa_layout_vfl)
    same(CMoa.moa_layout_vfl_options, Moa.moa_layout_vfl_options)
    same(CMoa.moa_collapsible_new) { L, v, c, dir, out in
        let raw: UInt32 = dir.rawValue
        return Moa.moa_collapsible_new(L, v, c, raw, out)
    }
    same(CMoa.moa_collapsible_free, Moa.moa_collapsible_free)
    same(CMoa.moa_collapsible_set, Moa.moa_collapsible_set)
    same(CMoa.moa_collapsible_toggle, Moa.moa_collapsible_toggle)
    same(CMoa.moa_collapsible_is_collapsed, Moa.moa_collapsible_is_collapsed)
    same(CMoa.moa_layout_show_keyboard, Moa.moa_layout_show_keyboard)
    same(CMoa.moa_layout_hide_keyboard, Moa.moa_layout_hide_keyboard)
    same(CMoa.moa_pan_new) { L, cons, n, axis, rest, nrest, out in
        let raw: UInt32 = axis.rawValue
        return Moa.moa_pan_new(L, cons, n, raw, rest, nrest, out)
    }
    same(CMoa.moa_pan_free, Moa.moa_pan_free)
    same(CMoa.moa_pan_began, Moa.moa_pan_began)
    same(CMoa.moa_pan_changed, Moa.moa_pan_changed)
    same(CMoa.moa_pan_ended, Moa.moa_pan_ended)
    same(CMoa.moa_pan_cancelled, Moa.moa_pan_cancelled)
    same(CMoa.moa_pan_move, Moa.moa_pan_move)
    same(CMoa.moa_pan_set_enabled, Moa.moa_pan_set_enabled)
    same(CMoa.moa_pan_set_options, Moa.moa_pan_set_options)
    same(CMoa.moa_pan_options, Moa.moa_pan_options)
    same(CMoa.moa_pan_set_orientations, Moa.moa_pan_set_orientations)
    same(CMoa.moa_pan_set_rest_positions, Moa.moa_pan_set_rest_positions)
    same(CMoa.moa_pan_offset, Moa.moa_pan_offset)
    same(CMoa.moa_pan_rest_position, Moa.moa_pan_rest_position)
    same(CMoa.moa_layout_trace_start, Moa.moa_layout_trace_start)
    same(CMoa.moa_layout_trace_stop, Moa.moa_layout_trace_stop)
    same(CMoa.moa_layout_trace_csv, Moa.moa_layout_trace_csv)
    same(CMoa.moa_layout_trace_json, Moa.moa_layout_trace_json)
    same(CMoa.moa_layout_trace_svg_strip, Moa.moa_layout_trace_svg_strip)

    // The types the thunks assume.
    same(moa_var.self, UInt64.self)
    same(moa_cons.self, UInt64.self)
    same(moa_status.self, Int32.self)
    same(moa_view.self, UInt64.self)
    same(moa_lcons.self, UInt64.self)
    same(moa_animation.self, UInt64.self)
    same(moa_collapsible.self, UInt64.self)
    same(moa_pan.self, UInt64.self)
    same(moa_curve.self, Int32.self)
    same(moa_done_fn.self, Moa.DoneFn.self)
    same(moa_rest_fn.self, Moa.RestFn.self)
    same(moa_text_fn.self, Moa.TextFn.self)
}

final class HeaderMatchesTests: XCTestCase {
    /// The layout the thunks read `moa_term` with (16 bytes: id, then coefficient at offset 8).
    func testTermLayout() {
        XCTAssertEqual(MemoryLayout<moa_term>.size, 16)
        XCTAssertEqual(MemoryLayout<moa_term>.stride, 16)
        XCTAssertEqual(MemoryLayout<moa_term>.offset(of: \moa_term.var), 0)
        XCTAssertEqual(MemoryLayout<moa_term>.offset(of: \moa_term.coef), 8)
    }

    /// The layout `moa_solver_add_many` reads `moa_cons_spec` with (`SpecLayout` in SolverBox.swift).
    func testConsSpecLayout() {
        XCTAssertEqual(MemoryLayout<moa_cons_spec>.stride, 56)
        XCTAssertEqual(MemoryLayout<moa_cons_spec>.offset(of: \moa_cons_spec.terms), 0)
        XCTAssertEqual(MemoryLayout<moa_cons_spec>.offset(of: \moa_cons_spec.nterms), 8)
        XCTAssertEqual(MemoryLayout<moa_cons_spec>.offset(of: \moa_cons_spec.constant), 16)
        XCTAssertEqual(MemoryLayout<moa_cons_spec>.offset(of: \moa_cons_spec.priority), 24)
        XCTAssertEqual(MemoryLayout<moa_cons_spec>.offset(of: \moa_cons_spec.weight), 32)
        XCTAssertEqual(MemoryLayout<moa_cons_spec>.offset(of: \moa_cons_spec.tag), 40)
        XCTAssertEqual(MemoryLayout<moa_cons_spec>.offset(of: \moa_cons_spec.rel), 48)
    }

    /// The layouts the layout thunks write `moa_rect`, `moa_frame` and `moa_error_info` with (LayoutBox.swift).
    func testContentStructs() {
        XCTAssertEqual(MemoryLayout<moa_measured_size>.stride, 32)
        XCTAssertEqual(MemoryLayout<moa_measured_size>.offset(of: \moa_measured_size.width), 0)
        XCTAssertEqual(MemoryLayout<moa_measured_size>.offset(of: \moa_measured_size.height), 8)
        XCTAssertEqual(MemoryLayout<moa_measured_size>.offset(of: \moa_measured_size.baseline), 16)
        XCTAssertEqual(MemoryLayout<moa_measured_size>.offset(of: \moa_measured_size.first_baseline), 24)
        XCTAssertEqual(MemoryLayout<moa_measure_stats>.stride, 4 * MemoryLayout<Int>.stride)
        XCTAssertEqual(MemoryLayout<moa_measure_stats>.offset(of: \moa_measure_stats.last_rounds), 3 * MemoryLayout<Int>.stride)
        XCTAssertEqual(MemoryLayout<moa_text_style>.offset(of: \moa_text_style.font_size), 0)
        XCTAssertEqual(MemoryLayout<moa_text_style>.offset(of: \moa_text_style.line_height), 8)
        XCTAssertEqual(MemoryLayout<moa_text_style>.offset(of: \moa_text_style.max_lines), 16)
        XCTAssertEqual(MemoryLayout<moa_text_style>.offset(of: \moa_text_style.reference_width), 24)
        XCTAssertEqual(MemoryLayout<moa_text_style>.offset(of: \moa_text_style.min_font_size), 32)
        XCTAssertEqual(MemoryLayout<moa_text_style>.offset(of: \moa_text_style.max_font_size), 40)
        XCTAssertEqual(MemoryLayout<moa_text_metrics>.size, 48)
        XCTAssertEqual(MemoryLayout<moa_text_metrics>.offset(of: \moa_text_metrics.height), 40)
        XCTAssertEqual(Int(MOA_MAX_MEASURE_ROUNDS), Layout.maxMeasureRounds)
        XCTAssertEqual(MOA_MEASURE_UNDEFINED.rawValue, UInt32(MeasureMode.undefined.rawValue))
        XCTAssertEqual(MOA_MEASURE_EXACTLY.rawValue, UInt32(MeasureMode.exactly.rawValue))
        XCTAssertEqual(MOA_MEASURE_AT_MOST.rawValue, UInt32(MeasureMode.atMost.rawValue))
    }

    func testLayoutStructs() {
        XCTAssertEqual(MemoryLayout<moa_rect>.size, 32)
        XCTAssertEqual(MemoryLayout<moa_rect>.offset(of: \moa_rect.x), 0)
        XCTAssertEqual(MemoryLayout<moa_rect>.offset(of: \moa_rect.y), 8)
        XCTAssertEqual(MemoryLayout<moa_rect>.offset(of: \moa_rect.width), 16)
        XCTAssertEqual(MemoryLayout<moa_rect>.offset(of: \moa_rect.height), 24)
        XCTAssertEqual(MemoryLayout<moa_frame>.stride, 88)
        XCTAssertEqual(MemoryLayout<moa_frame>.offset(of: \moa_frame.view), 0)
        XCTAssertEqual(MemoryLayout<moa_frame>.offset(of: \moa_frame.superview), 8)
        XCTAssertEqual(MemoryLayout<moa_frame>.offset(of: \moa_frame.frame), 16)
        XCTAssertEqual(MemoryLayout<moa_frame>.offset(of: \moa_frame.frame_in_root), 48)
        XCTAssertEqual(MemoryLayout<moa_frame>.offset(of: \moa_frame.depth), 80)
        XCTAssertEqual(MemoryLayout<moa_frame>.offset(of: \moa_frame.is_guide), 84)
        let p = MemoryLayout<UnsafePointer<CChar>?>.stride
        let start = (20 + p - 1) / p * p
        XCTAssertEqual(MemoryLayout<moa_error_info>.offset(of: \moa_error_info.code), 0)
        XCTAssertEqual(MemoryLayout<moa_error_info>.offset(of: \moa_error_info.line), 4)
        XCTAssertEqual(MemoryLayout<moa_error_info>.offset(of: \moa_error_info.offset), 8)
        XCTAssertEqual(MemoryLayout<moa_error_info>.offset(of: \moa_error_info.text_offset), 12)
        XCTAssertEqual(MemoryLayout<moa_error_info>.offset(of: \moa_error_info.length), 16)
        let strings: [KeyPath<moa_error_info, UnsafePointer<CChar>?>] = [
            \.kind, \.message, \.source_line, \.expected, \.suggestion, \.source,
        ]
        for (i, k) in strings.enumerated() {
            XCTAssertEqual(MemoryLayout<moa_error_info>.offset(of: k), start + i * p)
        }
        XCTAssertEqual(MemoryLayout<moa_error_info>.size, start + 6 * p)
    }

    /// The layout level's constants: the enums' raw values match the Swift enums they map to.
    func testLayoutConstants() {
        XCTAssertEqual([MOA_INHERIT.rawValue, MOA_LTR.rawValue, MOA_RTL.rawValue], [0, 1, 2])
        XCTAssertEqual([MOA_HORIZONTAL.rawValue, MOA_VERTICAL.rawValue], [0, 1])
        XCTAssertEqual([MOA_LEFT.rawValue, MOA_RIGHT.rawValue, MOA_UP.rawValue, MOA_DOWN.rawValue], [0, 1, 2, 3])
        XCTAssertEqual([MOA_LINEAR, MOA_EASE_IN, MOA_EASE_OUT, MOA_EASE_IN_OUT, MOA_SPRING, MOA_KEYBOARD_CURVE,
                        MOA_CURVE_CUSTOM], [0, 1, 2, 3, 4, 5, 256])
        // The curve names are the Swift descriptions of the curves the values stand for (keyboard: its name).
        let curves: [AnimationCurve] = [.linear, .easeIn, .easeOut, .easeInOut, .spring(Spring())]
        for (i, c) in curves.enumerated() {
            XCTAssertEqual(String(cString: CMoa.moa_curve_name(Int32(i))), String(c.description.prefix { $0 != "(" }))
        }
        XCTAssertEqual(String(cString: CMoa.moa_curve_name(MOA_KEYBOARD_CURVE)), "keyboard")
        XCTAssertNil(CMoa.moa_curve_name(6))
        XCTAssertNil(CMoa.moa_curve_name(MOA_CURVE_CUSTOM))
        XCTAssertEqual([MOA_PORTRAIT, MOA_LANDSCAPE, MOA_ANY_ORIENTATION],
                       [Orientations.portrait, .landscape, .all].map { Int32($0.rawValue) })
        XCTAssertEqual(String(cString: CMoa.moa_status_name(MOA_UNSATISFIABLE)), "UNSATISFIABLE")
        XCTAssertEqual(String(cString: CMoa.moa_status_name(99)), "UNKNOWN")
        XCTAssertEqual([MOA_VAR_MIN_X, MOA_VAR_MIN_Y, MOA_VAR_WIDTH, MOA_VAR_HEIGHT], [0, 1, 2, 3])
        XCTAssertEqual([MOA_SVG_CONSTRAINTS, MOA_SVG_GUIDES, MOA_SVG_NO_LABELS], [1, 2, 4])
        XCTAssertEqual(MOA_NO_INTRINSIC, -1)
        XCTAssertEqual(MOA_AUTO, -1)
    }

    /// A small screen through the C functions, and the callback types.
    func testLayoutThroughC() {
        guard let L = CMoa.moa_layout_new(320, 480) else { return XCTFail("moa_layout_new") }
        defer { CMoa.moa_layout_free(L) }
        var a: moa_view = 0
        XCTAssertEqual(CMoa.moa_view_new(L, "a", 0, &a), MOA_OK)
        var ids = [moa_lcons](repeating: 0, count: 4)
        var n = 0
        XCTAssertEqual(CMoa.moa_layout_eqs(L, "a.left == 8\na.top == 20\na.size == 100x40", &ids, 4, &n), MOA_OK)
        XCTAssertEqual(n, 4)
        XCTAssertEqual(CMoa.moa_layout_solve(L, nil), MOA_OK)
        var r = moa_rect()
        XCTAssertEqual(CMoa.moa_view_frame(L, a, &r), MOA_OK)
        XCTAssertEqual([r.x, r.y, r.width, r.height], [8, 20, 100, 40])
        var info = moa_error_info()
        XCTAssertEqual(CMoa.moa_layout_eq(L, "a.left = 1", &ids[0]), MOA_PARSE)
        XCTAssertEqual(CMoa.moa_layout_error_info(L, &info), MOA_OK)
        XCTAssertEqual(info.offset, 7)
        XCTAssertEqual(String(cString: info.kind), "parse")
        // A completion through a C function pointer (no captures), with the layout as user data.
        let done: moa_done_fn = { _, _, finished, ud in ud?.assumingMemoryBound(to: Int32.self).pointee = finished + 10 }
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)  // outlives the call that registers it
        flag.pointee = 0
        defer { flag.deallocate() }
        var anim: moa_animation = 0
        XCTAssertEqual(CMoa.moa_lcons_animate(L, ids[0], 0, 0.2, MOA_EASE_OUT, 0, done, flag, &anim), MOA_OK)
        XCTAssertEqual(CMoa.moa_layout_advance(L, 0.2), MOA_OK)
        XCTAssertEqual(flag.pointee, 11)
        XCTAssertEqual(CMoa.moa_layout_frames(L, 1, nil, 0, &n), MOA_OK)
        XCTAssertEqual(n, 5)
    }

    /// Header constants against the library (and the Swift core they mirror).
    func testConstants() {
        XCTAssertEqual(String(cString: CMoa.moa_libversion()), MOA_VERSION)
        XCTAssertEqual(CMoa.moa_libversion_number(), Int32(MOA_VERSION_NUMBER))
        XCTAssertEqual(MOA_EQ.rawValue, 0)
        XCTAssertEqual(MOA_LE.rawValue, 1)
        XCTAssertEqual(MOA_GE.rawValue, 2)
        XCTAssertEqual(MOA_REQUIRED, 1000)
        XCTAssertEqual(MOA_HIGH, 750)
        XCTAssertEqual(MOA_MEDIUM, 500)
        XCTAssertEqual(MOA_LOW, 250)
        XCTAssertEqual(MOA_FIT, 50)
        XCTAssertEqual(String(cString: CMoa.moa_libversion()), "\(MoaVersion.string)")
        let codes: [Int32] = [MOA_OK, MOA_ERROR, MOA_MISUSE, MOA_NOMEM, MOA_INVALID, MOA_NOTFOUND, MOA_DUPLICATE,
                              MOA_UNSATISFIABLE, MOA_PARSE, MOA_CALLBACK]
        XCTAssertEqual(codes, Array(0...9))
        XCTAssertEqual(Set(codes.map { String(cString: CMoa.moa_errstr($0)) }).count, codes.count)
    }

    /// The priority name table through C: every entry of `Priority.names`, in order, then NULL; each name
    /// resolves to its value; unknown names and NULLs fail without touching the output.
    func testPriorityNamesThroughC() {
        var listed: [String] = []
        var value = 0.0
        while let name = CMoa.moa_priority_name(Int32(listed.count), &value) {
            let s = String(cString: name)
            XCTAssertEqual(value, Priority.value(named: s), s)
            var looked = -1.0
            XCTAssertEqual(CMoa.moa_priority_value(name, &looked), MOA_OK)
            XCTAssertEqual(looked, value, s)
            listed.append(s)
        }
        XCTAssertEqual(listed, Priority.names.map(\.name))
        XCTAssertTrue(listed.contains("medium") && listed.contains("fittingSizeLevel"))
        XCTAssertNil(CMoa.moa_priority_name(-1, nil))
        XCTAssertNotNil(CMoa.moa_priority_name(0, nil))
        var untouched = 7.0
        XCTAssertEqual(CMoa.moa_priority_value("Medium", &untouched), MOA_NOTFOUND)
        XCTAssertEqual(CMoa.moa_priority_value("", &untouched), MOA_NOTFOUND)
        XCTAssertEqual(untouched, 7)
        XCTAssertEqual(CMoa.moa_priority_value(nil, &untouched), MOA_MISUSE)
        XCTAssertEqual(CMoa.moa_priority_value("high", nil), MOA_MISUSE)
    }

    /// x + y == 10, x == 3 → y == 7, through the C functions.
    func testSolveThroughC() {
        let s = CMoa.moa_solver_new()
        defer { CMoa.moa_solver_free(s) }
        var x: moa_var = 0, y: moa_var = 0, c: moa_cons = 0
        XCTAssertEqual(CMoa.moa_var_new(s, "x", &x), MOA_OK)
        XCTAssertEqual(CMoa.moa_var_new(s, "y", &y), MOA_OK)
        var sum = [moa_term(var: x, coef: 1), moa_term(var: y, coef: 1)]
        XCTAssertEqual(CMoa.moa_solver_add(s, &sum, 2, -10, MOA_EQ, MOA_REQUIRED, "sum", &c), MOA_OK)
        var pin = moa_term(var: x, coef: 1)
        XCTAssertEqual(CMoa.moa_solver_add(s, &pin, 1, -3, MOA_EQ, MOA_REQUIRED, nil, &c), MOA_OK)
        XCTAssertEqual(CMoa.moa_solver_update(s), MOA_OK)
        var v = -1.0
        XCTAssertEqual(CMoa.moa_var_value(s, y, &v), MOA_OK)
        XCTAssertEqual(v, 7, accuracy: 1e-9)
        // All at once; a stale id writes nothing.
        var both = [-1.0, -1.0]
        XCTAssertEqual(CMoa.moa_solver_values(s, [x, y], 2, &both), MOA_OK)
        XCTAssertEqual(both[0], 3, accuracy: 1e-9)
        XCTAssertEqual(both[1], 7, accuracy: 1e-9)
        var untouched = [-1.0, -1.0]
        XCTAssertEqual(CMoa.moa_solver_values(s, [x, 12345], 2, &untouched), MOA_NOTFOUND)
        XCTAssertEqual(untouched, [-1, -1])
        XCTAssertEqual(CMoa.moa_solver_values(s, nil, 2, &untouched), MOA_MISUSE)
        XCTAssertEqual(CMoa.moa_solver_values(s, nil, 0, nil), MOA_OK)
    }

    /// Misuse gives a status, never a trap.
    func testMisuseThroughC() {
        var v = 0.0
        XCTAssertEqual(CMoa.moa_var_value(nil, 1, &v), MOA_MISUSE)
        let s = CMoa.moa_solver_new()
        defer { CMoa.moa_solver_free(s) }
        XCTAssertEqual(CMoa.moa_var_value(s, 0, &v), MOA_NOTFOUND)
        XCTAssertEqual(CMoa.moa_var_value(s, 12345, nil), MOA_MISUSE)
        XCTAssertEqual(CMoa.moa_solver_add(s, nil, 3, 0, MOA_EQ, MOA_LOW, nil, nil), MOA_MISUSE)
        var c: moa_cons = 0
        XCTAssertEqual(CMoa.moa_solver_add(s, nil, -1, 0, MOA_EQ, MOA_LOW, nil, &c), MOA_INVALID)
        XCTAssertEqual(CMoa.moa_solver_add(s, nil, 0, 0, moa_relation(rawValue: 7), MOA_LOW, nil, &c), MOA_INVALID)
        XCTAssertNotEqual(String(cString: CMoa.moa_solver_errmsg(s)), "not an error")
        CMoa.moa_solver_free(nil)
    }
}

/// Swift Testing (so `swift test` reports a non-zero Swift Testing count): the status names are all distinct.
@Test func statusNamesAreDistinct() {
    let names = (0...8).map { String(cString: Moa.moa_errstr(Int32($0))!) }
    #expect(Set(names).count == 9)
    #expect(String(cString: Moa.moa_errstr(-1)!) == "unknown status code")
}
