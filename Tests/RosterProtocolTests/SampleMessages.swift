import Foundation
import RosterProtocol

/// One realistic instance of every message type: the content of the test vectors.
enum SampleMessages {
    static let ada = Roster_V1_Employee.with {
        $0.id = "e-ada"
        $0.firstName = "Ada"
        $0.lastName = "Lovelace"
        $0.email = "ada@example.com"
        $0.phone = "+44 20 7946 0000"
        $0.position = "Engineer"
        $0.team = "Core"
        $0.projects = ["Analytical Engine", "Notes"]
        $0.biography = "Wrote the first program."
        $0.photoURL = "https://example.com/ada.jpg"
        $0.type = .fullTime
    }
    static let shift = Roster_V1_Shift.with {
        $0.id = "s-1"
        $0.employeeID = "e-ada"
        $0.startMs = 1_767_258_000_000
        $0.endMs = 1_767_286_800_000
        $0.role = "primary"
    }
    static let person = Roster_V1_OnDutyPerson.with {
        $0.employee = ada
        $0.shift = shift
    }
    /// A weekly rotation of Ada and Grace handing off Mondays 09:00 Berlin time, with a
    /// business-hours restriction, and an override.
    static let schedule = Roster_V1_Schedule.with {
        $0.id = "sch-platform"
        $0.name = "Platform primary"
        $0.zone = "Europe/Berlin"
        $0.team = "Core"
        $0.layers = [
            .with {
                $0.level = 1
                $0.rotations = [
                    .with {
                        $0.id = "rot-weekly"
                        $0.slots = [.with { $0.employeeIds = ["e-ada"] }, .with { $0.employeeIds = ["e-grace"] }]
                        $0.cadence = .with {
                            $0.unit = .weeks; $0.count = 1
                        }
                        $0.handoff = "2026-11-30T09:00"
                        $0.restrictions = [
                            .with {
                                $0.weekdays = [2, 3, 4, 5, 6]; $0.startMinute = 540; $0.endMinute = 1020
                            }
                        ]
                        $0.version = 1
                    }
                ]
            }
        ]
        $0.overrides = [
            .with {
                $0.id = "ovr-1"; $0.kind = .replace; $0.employeeID = "e-grace"; $0.replacedEmployeeID = "e-ada"
                $0.startMs = 1_764_633_600_000; $0.endMs = 1_764_720_000_000; $0.author = "tok_admin";
                $0.reason = "conference"
            }
        ]
    }
    static let resolvedShift = Roster_V1_ResolvedShift.with {
        $0.id = "r:rot-weekly:0:e-ada@1764489600000"
        $0.employeeID = "e-ada"
        $0.startMs = 1_764_489_600_000
        $0.endMs = 1_764_633_600_000
        $0.scheduleID = "sch-platform"
        $0.sourceKind = .rotation
        $0.sourceID = "rot-weekly"
        $0.level = 1
        $0.turn = 0
        $0.version = 1
    }
    static let grace = Roster_V1_Employee.with {
        $0.id = "e-grace"
        $0.firstName = "Grace"
        $0.lastName = "Hopper"
        $0.position = "Engineer"
        $0.team = "Core"
    }
    /// Grace's shift starts when Ada's ends: 2026-01-01T17:00Z to 2026-01-02T01:00Z.
    static let graceShift = Roster_V1_Shift.with {
        $0.id = "s-2"
        $0.employeeID = "e-grace"
        $0.startMs = 1_767_286_800_000
        $0.endMs = 1_767_315_600_000
    }
    static let nextPerson = Roster_V1_OnDutyPerson.with {
        $0.employee = grace
        $0.shift = graceShift
    }
    static let tenant = Roster_V1_Tenant.with {
        $0.id = "demo"
        $0.name = "Demo Corp"
        $0.motd = "Be kind."
    }
    static let filter = Roster_V1_SubscriptionFilter.with { $0.team = "Core" }

    /// (request id, message) for every message type, in type-code order.
    static let all: [(UInt32, RosterMessage)] = [
        (
            1,
            .hello(
                .with {
                    $0.minVersion = 1; $0.maxVersion = 1; $0.clientName = "roster-client/1.0"
                    $0.token = "rst_0123456789ab_" + String(repeating: "5f3c", count: 16)
                    $0.tenant = "demo"; $0.features = ["x-example"]
                })
        ),
        (
            1,
            .welcome(
                .with {
                    $0.version = 1; $0.serverID = "srv-1"; $0.epoch = 0x1234_5678_9ABC_DEF0; $0.revision = 42
                    $0.limits = .with {
                        $0.maxFrameBytes = 1_048_576; $0.pingIntervalMs = 15_000; $0.maxSubscriptions = 16;
                        $0.maxInFlight = 64
                    }
                    $0.tenant = tenant; $0.role = .reader
                })
        ),
        (
            7,
            .error(
                .with {
                    $0.code = .invalidArgument; $0.retryable = false; $0.message = "invalid input"; $0.requestID = 7
                    $0.violations = [
                        .with {
                            $0.location = "line 3"; $0.field = "email"; $0.description_p = "is not an email address"
                        }
                    ]
                })
        ),
        (9, .ping(.with { $0.nonce = 99 })),
        (9, .pong(.with { $0.nonce = 99 })),
        (
            0,
            .goingAway(
                .with {
                    $0.reason = "server shutting down"; $0.retryAfterMs = 2_500
                })
        ),
        (2, .getOnDuty(.with { $0.atMs = 1_767_270_000_000 })),
        (
            2,
            .onDuty(
                .with {
                    $0.epoch = 7; $0.revision = 42; $0.atMs = 1_767_270_000_000; $0.current = [person]
                    $0.untilMs = 1_767_286_800_000; $0.next = [nextPerson]
                })
        ),
        (3, .listEmployees(.with { $0.groupBy = .byTeam })),
        (
            3,
            .employees(
                .with {
                    $0.epoch = 7; $0.revision = 42; $0.employees = [ada];
                    $0.groups = [
                        .with {
                            $0.name = "Core"; $0.employees = [ada]
                        }
                    ]
                })
        ),
        (
            4,
            .search(
                .with {
                    $0.text = "love"; $0.limit = 10
                })
        ),
        (5, .getEmployee(.with { $0.idOrName = "Ada Lovelace" })),
        (
            5,
            .employee(
                .with {
                    $0.epoch = 7; $0.revision = 42; $0.employee = ada; $0.shifts = [shift]
                })
        ),
        (
            6,
            .listShifts(
                .with {
                    $0.fromMs = 1_767_225_600_000; $0.toMs = 1_767_312_000_000; $0.employeeID = "e-ada"
                })
        ),
        (
            6,
            .shifts(
                .with {
                    $0.epoch = 7; $0.revision = 42; $0.shifts = [shift]
                })
        ),
        (8, .getSnapshot(Roster_V1_GetSnapshotRequest())),
        (
            8,
            .snapshot(
                .with {
                    $0.epoch = 7; $0.revision = 42; $0.tenant = tenant; $0.employees = [ada]; $0.shifts = [shift]
                })
        ),
        (
            10,
            .subscribe(
                .with {
                    $0.topics = [.onDuty, .roster]; $0.filter = filter; $0.sinceRevision = 40; $0.epoch = 7
                })
        ),
        (
            10,
            .subscribed(
                .with {
                    $0.subscriptionID = 1; $0.epoch = 7; $0.revision = 42
                })
        ),
        (11, .unsubscribe(.with { $0.subscriptionID = 1 })),
        (11, .unsubscribed(.with { $0.subscriptionID = 1 })),
        (
            10,
            .synced(
                .with {
                    $0.subscriptionID = 1; $0.epoch = 7; $0.revision = 42
                })
        ),
        (
            0,
            .progress(
                .with {
                    $0.epoch = 7; $0.revision = 42; $0.filter = filter
                })
        ),
        (
            0,
            .onDutyChanged(
                .with {
                    $0.epoch = 7; $0.revision = 42; $0.atMs = 1_767_286_800_000; $0.previous = [person];
                    $0.current = [nextPerson]
                    $0.untilMs = 1_767_315_600_000; $0.next = []; $0.cause = .boundary; $0.filter = filter;
                    $0.sequence = 3
                })
        ),
        (
            0,
            .rosterChanged(
                .with {
                    $0.epoch = 7; $0.revision = 43; $0.committedAtMs = 1_767_270_000_123; $0.filter = filter
                    $0.changes = [
                        .with { $0.employeeUpserted = ada }, .with { $0.employeeDeleted = "e-old" },
                        .with { $0.shiftAdded = shift },
                        .with { $0.shiftDeleted = "s-old" }, .with { $0.motdSet = "New motd" },
                    ]
                })
        ),
        (12, .upsertEmployee(.with { $0.employee = ada })),
        (13, .deleteEmployee(.with { $0.id = "e-ada" })),
        (14, .addShift(.with { $0.shift = shift })),
        (15, .deleteShift(.with { $0.id = "s-1" })),
        (16, .setMotd(.with { $0.motd = "Be kind." })),
        (
            17,
            .importData(
                .with {
                    $0.format = .employeesCsv; $0.data = Data("first_name,last_name\nAda,Lovelace\n".utf8);
                    $0.replace = false
                    $0.updateExisting = true
                })
        ),
        (18, .listSchedules(.init())),
        (
            18,
            .schedules(
                .with {
                    $0.epoch = 7; $0.revision = 43; $0.schedules = [schedule]
                })
        ),
        (
            19,
            .getFinalSchedule(
                .with {
                    $0.schedule = "Platform primary"; $0.fromMs = 1_764_460_800_000; $0.toMs = 1_767_484_800_000
                })
        ),
        (
            19,
            .finalSchedule(
                .with {
                    $0.epoch = 7; $0.revision = 43; $0.shifts = [resolvedShift]
                })
        ),
        (
            20,
            .getNextOnDuty(
                .with {
                    $0.employee = "Ada Lovelace"; $0.schedule = "Platform primary"
                })
        ),
        (
            21,
            .editSchedule(
                .with {
                    $0.schedule = "Platform primary"; $0.preview = true
                    $0.addOverride = .with {
                        $0.kind = .replace; $0.replacedEmployeeID = "Ada Lovelace"; $0.employeeID = "Grace Hopper"
                        $0.startMs = 1_764_633_600_000; $0.endMs = 1_764_720_000_000; $0.reason = "conference"
                    }
                })
        ),
        (
            22,
            .getAudit(
                .with {
                    $0.sinceMs = 1_764_460_800_000; $0.person = "Ada Lovelace"; $0.limit = 50
                })
        ),
        (
            22,
            .audit(
                .with {
                    $0.entries = [
                        .with {
                            $0.id = 9; $0.atMs = 1_764_633_600_000; $0.kind = "change"; $0.revision = 43;
                            $0.tokenID = "1a2b3c4d5e6f"
                            $0.actor = "ops laptop"; $0.address = "192.0.2.10:51234"; $0.reason = "release freeze"
                            $0.changes = [
                                .with {
                                    $0.change = .with { $0.motdSet = "Freeze from Friday" }
                                    $0.before = .with { $0.motdSet = "Be kind." }
                                }
                            ]
                        }
                    ]
                })
        ),
        (
            23,
            .getCalendar(
                .with {
                    $0.schedule = "Platform primary"; $0.createToken = true; $0.alarm = "15m"; $0.label = "phone"
                })
        ),
        (
            23,
            .calendar(
                .with {
                    $0.ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"; $0.token = "rst_0a1b2c3d4e5f_00ff"
                    $0.httpPort = 7480; $0.https = true
                })
        ),
        (
            25,
            .notice(
                .with {
                    $0.epoch = 7; $0.sequence = 12; $0.id = "evt_c7528bff981111b5ab82cac9"; $0.type = "shifts.changed";
                    $0.revision = 42
                    $0.aboutMs = 1_767_225_600_000; $0.scheduleIds = ["default"]; $0.people = ["e-ada"]
                    $0.json =
                        #"{"about":"2026-01-01T00:00:00Z","id":"evt_c7528bff981111b5ab82cac9","type":"shifts.changed"}"#
                })
        ),
        (
            24,
            .notificationAdmin(
                .with {
                    $0.addWebhook = .with {
                        $0.url = "https://ops.example.com/roster"; $0.events = ["on-duty.changed", "shift.starting"]
                    }
                })
        ),
        (
            26,
            .getReport(
                .with {
                    $0.kind = .hours; $0.fromMs = 1_764_547_200_000; $0.toMs = 1_767_225_600_000;
                    $0.schedule = "Platform primary"
                    $0.zone = "Europe/Berlin"; $0.night = "22:00-08:00"; $0.holidays = ["2026-12-24", "2026-12-25"]
                })
        ),
        (
            26,
            .report(
                .with {
                    $0.fromMs = 1_764_547_200_000; $0.toMs = 1_767_225_600_000; $0.nowMs = 1_765_000_000_000;
                    $0.zone = "Europe/Berlin"
                    $0.people = [
                        .with {
                            $0.employeeID = "e-ada"; $0.name = "Ada Lovelace"; $0.totalMs = 604_800_000
                            $0.schedules = [
                                .with {
                                    $0.scheduleID = "sch_platform"; $0.scheduleName = "Platform primary";
                                    $0.ms = 604_800_000
                                }
                            ]
                            $0.categories = .with {
                                $0.businessMs = 162_000_000; $0.outsideBusinessHoursMs = 126_000_000;
                                $0.nightMs = 144_000_000; $0.weekendMs = 172_800_000
                            }
                            $0.outOfHoursPeriods = 5; $0.stretches = 1; $0.longestStretchMs = 604_800_000;
                            $0.shortestRestMs = -1
                        }
                    ]
                })
        ),
        (
            27,
            .applyDefinition(
                .with {
                    $0.planOnly = true
                    $0.prune = false
                    $0.definition = .with {
                        $0.schedules = [
                            .with {
                                $0.id = "sch_platform"; $0.name = "Platform primary"; $0.zone = "Europe/Berlin"
                                $0.layers = [
                                    .with {
                                        $0.rotations = [
                                            .with {
                                                $0.id = "rot_weekly"; $0.handoff = "2026-11-30T09:00";
                                                $0.cadence = .with {
                                                    $0.unit = .weeks; $0.count = 1
                                                }
                                                $0.slots = [
                                                    .with { $0.employeeIds = ["Ada Lovelace"] },
                                                    .with { $0.employeeIds = ["Alan Turing"] },
                                                ]
                                            }
                                        ]
                                    }
                                ]
                            }
                        ]
                        $0.managesWebhooks = true
                        $0.webhooks = [
                            .with {
                                $0.id = "whk_ops"; $0.url = "https://ops.example.com/roster";
                                $0.accessToken = "whsec_from_env_0123"
                            }
                        ]
                    }
                })
        ),
        (
            27,
            .definitionPlan(
                .with {
                    $0.epoch = 7; $0.revision = 42
                    $0.changes = [
                        .with {
                            $0.action = .change; $0.kind = "rotation"; $0.id = "rot_weekly";
                            $0.name = "Platform primary / rot_weekly"
                            $0.location = "schedules[0].layers[0].rotations[0]"
                            $0.fields = [
                                .with {
                                    $0.field = "people"; $0.before = "Alan Turing, Ada Lovelace";
                                    $0.after = "Ada Lovelace, Alan Turing"
                                }
                            ]
                        },
                        .with {
                            $0.action = .create; $0.kind = "webhook"; $0.id = "whk_ops";
                            $0.name = "https://ops.example.com/roster"; $0.location = "webhooks[0]"
                        },
                    ]
                    $0.duty = [
                        .with {
                            $0.employeeID = "e-ada"; $0.employeeName = "Ada Lovelace"; $0.startMs = 1_796_112_000_000;
                            $0.endMs = 1_796_716_800_000
                            $0.gained = true; $0.scheduleID = "sch_platform"
                        }
                    ]
                })
        ),
        (
            24,
            .notificationAdminResult(
                .with {
                    $0.webhooks = [
                        .with {
                            $0.id = "whk_0a1b2c3d4e5f"; $0.url = "https://ops.example.com/roster";
                            $0.events = ["on-duty.changed", "shift.starting"]
                            $0.createdMs = 1_767_225_600_000
                        }
                    ]
                    $0.secret = "whsec_00ff"
                })
        ),
        (
            17,
            .mutationResult(
                .with {
                    $0.epoch = 7; $0.revision = 43; $0.ids = ["e-ada"]; $0.changeCount = 1
                    $0.importSummary = .with {
                        $0.updated = 1
                        $0.rows = [
                            .with {
                                $0.action = .updated; $0.kind = "employee"; $0.id = "e-ada";
                                $0.description_p = "Ada Lovelace"; $0.location = "line 2"
                            }
                        ]
                    }
                })
        ),
        (
            0,
            .escalationChanged(
                .with {
                    $0.epoch = 7; $0.revision = 43; $0.atMs = 1_796_041_800_000; $0.sequence = 12
                    $0.cause = .escalationHandoff; $0.changedSteps = [1]
                    $0.policy = .with {
                        $0.id = "pol_payments"; $0.name = "Payments"
                        $0.steps = [
                            .with {
                                $0.delayMinutes = 10; $0.targets = [.with { $0.scheduleID = "sch_platform" }]
                            },
                            .with {
                                $0.delayMinutes = 20; $0.targets = [.with { $0.scheduleID = "sch_db" }]
                            },
                        ]
                    }
                    $0.services = [
                        .with {
                            $0.id = "svc_payments"; $0.name = "Payments API"; $0.policyID = "pol_payments"
                        }
                    ]
                    $0.steps = [
                        .with {
                            $0.index = 0; $0.atMs = 1_796_041_800_000; $0.delayMinutes = 10
                            $0.people = [
                                .with {
                                    $0.employee = ada; $0.scheduleID = "sch_platform"
                                }
                            ]
                        },
                        .with {
                            $0.index = 1; $0.atMs = 1_796_041_800_000; $0.delayMinutes = 20
                            $0.people = [
                                .with {
                                    $0.employee = grace; $0.scheduleID = "sch_db"
                                }
                            ]
                        },
                    ]
                })
        ),
        (
            33,
            .getEscalation(
                .with {
                    $0.service = "Payments API"; $0.atMs = 1_796_040_000_000; $0.simulate = true
                })
        ),
        (
            33,
            .escalation(
                .with {
                    $0.epoch = 7; $0.revision = 43; $0.atMs = 1_796_040_000_000
                    $0.service = .with {
                        $0.id = "svc_payments"; $0.name = "Payments API"; $0.policyID = "pol_payments"
                        $0.links = [
                            .with {
                                $0.title = "Runbook"; $0.url = "https://runbooks.example/payments"
                            }
                        ]
                    }
                    $0.policy = .with {
                        $0.id = "pol_payments"; $0.name = "Payments"; $0.repeat = 1
                        $0.steps = [
                            .with {
                                $0.delayMinutes = 10; $0.targets = [.with { $0.scheduleID = "sch_platform" }]
                            },
                            .with {
                                $0.delayMinutes = 15; $0.strategy = .strategyRoundRobin
                                $0.targets = [.with { $0.employeeID = "e-grace" }, .with { $0.team = "Core" }]
                            },
                        ]
                    }
                    $0.steps = [
                        .with {
                            $0.index = 0; $0.round = 0; $0.atMs = 1_796_040_000_000; $0.delayMinutes = 10
                            $0.untilMs = 1_796_112_000_000
                            $0.people = [
                                .with {
                                    $0.employee = ada; $0.scheduleID = "sch_platform";
                                    $0.shiftID = "r:rot_weekly:1:e-ada"
                                }
                            ]
                        },
                        .with {
                            $0.index = 1; $0.round = 0; $0.atMs = 1_796_040_600_000; $0.delayMinutes = 15
                            $0.strategy = .strategyRoundRobin
                            $0.people = [.with { $0.employee = grace }]
                        },
                    ]
                })
        ),
        (
            34,
            .identityAdmin(
                .with {
                    $0.setSingleSignOn = .with {
                        $0.issuer = "https://id.example.test/realms/staff"; $0.clientID = "roster"
                        $0.clientSecret = "s3cret"; $0.groupsClaim = "realm_access.roles"
                        $0.adminGroups = ["oncall-admins"]; $0.teamGroups = ["payments-oncall": "Payments"]
                        $0.createPeople = true
                    }
                    $0.reason = "company sign-in"
                })
        ),
        (
            34,
            .identityAdminResult(
                .with {
                    $0.singleSignOn = .with {
                        $0.issuer = "https://id.example.test/realms/staff"; $0.clientID = "roster"
                        $0.scopes = ["openid", "profile", "email"]; $0.groupsClaim = "realm_access.roles"
                        $0.adminGroups = ["oncall-admins"]; $0.teamGroups = ["payments-oncall": "Payments"]
                        $0.createPeople = true
                    }
                    $0.redirectUri = "https://roster.example.test/sign-in/sso/callback"
                    $0.notes = ["the provider signs ID tokens with RS256"]
                })
        ),
        (
            35,
            .personalTokens(
                .with {
                    $0.create = .with {
                        $0.label = "status light"; $0.readOnly = true; $0.schedules = ["Platform primary"]
                        $0.expiresInS = 2_592_000
                    }
                })
        ),
        (
            35,
            .personalTokensResult(
                .with {
                    $0.token = "rst_0a1b2c3d4e5f_" + String(repeating: "7", count: 64)
                    $0.tokens = [
                        .with {
                            $0.tokenID = "0a1b2c3d4e5f"; $0.label = "status light"; $0.readOnly = true
                            $0.schedules = ["sch_platform"]; $0.createdMs = 1_796_040_000_000
                            $0.expiresMs = 1_798_632_000_000; $0.employeeID = "emp_grace"
                        }
                    ]
                })
        ),
        (
            36,
            .push(
                .with {
                    $0.add = .with {
                        $0.endpoint = "https://updates.push.example.net/wpush/v2/gAAAAABl"
                        $0.p256Dh =
                            "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
                        $0.auth = "tBHItJI5svbpez7KI4CCXg"; $0.label = "Pixel 8"
                    }
                })
        ),
        (
            36,
            .pushResult(
                .with {
                    $0.subscriptionID = "psh_0a1b2c3d4e5f"
                    $0.subscriptions = [
                        .with {
                            $0.id = "psh_0a1b2c3d4e5f"; $0.format = "web-push"
                            $0.origin = "https://updates.push.example.net"; $0.label = "Pixel 8"
                            $0.createdMs = 1_796_040_000_000
                        }
                    ]
                    $0.settings = .with {
                        $0.kinds = ["on-duty", "cover-asked"]; $0.quiet = true; $0.quietStartMinute = 1_320
                        $0.quietEndMinute = 420; $0.quietZone = "Europe/Berlin"
                    }
                    $0.vapidPublicKey =
                        "BDd3_hVL9fZi9Ybo2UUzA284WG5FZR30_95YeZJsiApwXKpNcF1rRPF3foIiBHXRdJI2Qhumhf6_LFTeZaNndIo"
                })
        ),
    ]

    /// Further vectors for one type, named `<code>-<Type>-<what>.json`: self-service (docs/PROTOCOL.md,
    /// "Self-service and cover requests").
    static let more: [(String, UInt32, RosterMessage)] = [
        (
            "escalation-policy-set", 0,
            .rosterChanged(
                .with {
                    $0.epoch = 7; $0.revision = 44; $0.committedAtMs = 1_796_040_000_000
                    $0.changes = [
                        .with {
                            $0.escalationPolicySet = .with {
                                $0.id = "pol_payments"; $0.name = "Payments"; $0.team = "Core"
                                $0.steps = [
                                    .with {
                                        $0.delayMinutes = 10; $0.targets = [.with { $0.scheduleID = "sch_platform" }]
                                    }
                                ]
                            }
                        },
                        .with { $0.serviceDeleted = "svc_old" },
                    ]
                })
        ),
        (
            "take-duty", 30,
            .editSchedule(
                .with {
                    $0.schedule = "Platform primary"
                    $0.takeDuty = .with {
                        $0.startMs = 1_764_633_600_000; $0.endMs = 1_764_662_400_000; $0.reason = "swap lunch"
                    }
                })
        ),
        (
            "cover-open", 31,
            .editSchedule(
                .with {
                    $0.schedule = "Platform primary"
                    $0.coverRequest = .with {
                        $0.action = .open; $0.startMs = 1_765_180_800_000; $0.endMs = 1_765_785_600_000
                        $0.addressedTo = ["Alan Turing", "Grace Hopper"]; $0.note = "dentist"
                    }
                })
        ),
        (
            "cover-take", 32,
            .editSchedule(
                .with {
                    $0.coverRequest = .with {
                        $0.action = .take; $0.requestID = "req_7kq2m9x4v8bc"
                    }
                })
        ),
        (
            "cover-cancel-for", 33,
            .editSchedule(
                .with {
                    $0.coverRequest = .with {
                        $0.action = .cancel; $0.requestID = "req_7kq2m9x4v8bc"; $0.person = "Ada Lovelace"
                    }
                })
        ),
        (
            "cover-requests", 34,
            .schedules(
                .with {
                    $0.epoch = 7; $0.revision = 45
                    $0.schedules = [
                        .with {
                            $0.id = "sch-platform"; $0.name = "Platform primary"; $0.zone = "Europe/Berlin"
                            $0.overrides = [
                                .with {
                                    $0.id = "ovr_3n5p7r9t2v4x"; $0.kind = .replace; $0.employeeID = "e-alan";
                                    $0.replacedEmployeeID = "e-ada"
                                    $0.startMs = 1_765_180_800_000; $0.endMs = 1_765_785_600_000;
                                    $0.author = "1a2b3c4d5e6f"; $0.reason = "dentist"
                                    $0.source = "request:req_7kq2m9x4v8bc"
                                }
                            ]
                            $0.requests = [
                                .with {
                                    $0.id = "req_7kq2m9x4v8bc"; $0.requester = "e-ada"; $0.startMs = 1_765_180_800_000;
                                    $0.endMs = 1_765_785_600_000
                                    $0.addressedTo = ["e-alan", "e-grace"]; $0.note = "dentist"; $0.state = .taken;
                                    $0.taker = "e-alan"
                                    $0.overrideID = "ovr_3n5p7r9t2v4x"; $0.declinedBy = ["e-grace"];
                                    $0.openedMs = 1_764_633_600_000
                                    $0.changedMs = 1_764_640_800_000; $0.author = "9f8e7d6c5b4a"
                                }
                            ]
                        }
                    ]
                })
        ),
        (
            "already-taken", 32,
            .error(
                .with {
                    $0.code = .failedPrecondition; $0.requestID = 32;
                    $0.message = "request req_7kq2m9x4v8bc is already taken by Alan Turing"
                })
        ),
    ]
}
