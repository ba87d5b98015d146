from lessonkit import Lesson

lesson = Lesson()


@lesson.value
def two_pow():
    return 2 ** 10


@lesson.value
def curve_points():
    return {"x": [0, 1], "y": [0, 1, 2]}


@lesson.figure(caption="曲线", alt="一条直线", data="curve_points")
def curve(plt):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    return fig
